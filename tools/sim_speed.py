#!/usr/bin/env python3
"""sim_speed.py — how fast `rtpar simulate` runs a large stochastic horizon (issue 17, item 4;
docs/internals/simulation.md, "Cost per event").

The case is the one the issue names: RT-OpenMP-style sets (`rtpar generate rtomp`; by default the
32 ms timescale at 30% of m, which decomposition admits) on 36 cores, planned by `decomposition`
with the profile charged, simulated over a 300 s horizon with overheads sampled per instance
from a calibrated profile and stochastic execution (each node's work drawn per job in
[0.5, 1] x its declared length). Each set is simulated --repeat times as a whole process; the
table gives, per set, whether the plan is schedulable, the jobs simulated, the misses, the wall
time (min / median / max over the repeats) and jobs per second at the median.

usage: tools/sim_speed.py [--rtpar build/rtpar] [--cores 36] [--util-pct 30] [--timescale 32]
                          [--sets 3]
                          [--seed 5] [--horizon 300s] [--execution 0.5..1] [--repeat 3]
                          [--profile FILE] [--quick]
--quick: one set, a 1 s horizon, one repeat (the ctest smoke: it checks that the tool runs end
to end, never a time). Exit status: 0, or 1 when a step failed (its stderr is printed).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    """run executes cmd; returns (wall seconds, CompletedProcess)."""
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - start, p


def fail(what, p):
    sys.stderr.write(f"sim_speed: {what} failed (exit {p.returncode})\n{p.stderr}")
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rtpar", default=os.path.join(ROOT, "build", "rtpar"))
    ap.add_argument("--cores", type=int, default=36)
    ap.add_argument("--util-pct", type=int, default=30)
    ap.add_argument("--timescale", type=int, default=32, help="T_min in ms (RT-OpenMP Table I)")
    ap.add_argument("--sets", type=int, default=3)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--horizon", default="300s")
    ap.add_argument("--execution", default="0.5..1")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", default=os.path.join(ROOT, "experiments", "data",
                                                      "rtpar-calibrate-2c-ovh.json"))
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.sets, args.horizon, args.repeat = 1, "1s", 1
    if args.sets < 1 or args.repeat < 1:
        ap.error("--sets and --repeat must be >= 1")

    with tempfile.TemporaryDirectory(prefix="sim_speed.") as work:
        _, p = run([args.rtpar, "generate", "rtomp", "--param", f"cores={args.cores}",
                    "--param", f"util_pct={args.util_pct}", "--param",
                    f"timescale={args.timescale}", "--seed", str(args.seed),
                    "--count", str(args.sets), "--out", work])
        if p.returncode != 0:
            fail("rtpar generate", p)
        files = sorted(f for f in os.listdir(work) if f.endswith(".toml"))
        if len(files) != args.sets:
            sys.stderr.write(f"sim_speed: generate wrote {len(files)} sets, not {args.sets}\n")
            return 1
        print(f"`rtpar simulate SET --planner decomposition --target {args.cores}c --horizon "
              f"{args.horizon} --overhead {os.path.relpath(args.profile, ROOT)} "
              f"--overhead-statistic sampled --execution {args.execution} --seed 1 --json`, "
              f"{args.repeat} runs each\n")
        print("| set | tasks | schedulable | jobs | misses | wall min / median / max (s) "
              "| jobs/s (median) |")
        print("|---|---|---|---|---|---|---|")
        for name in files:
            cmd = [args.rtpar, "simulate", os.path.join(work, name), "--planner",
                   "decomposition", "--target", f"{args.cores}c", "--horizon", args.horizon,
                   "--overhead", args.profile, "--overhead-statistic", "sampled",
                   "--execution", args.execution, "--seed", "1", "--json"]
            walls, doc = [], None
            for _ in range(args.repeat):
                wall, p = run(cmd)
                # Exit 1 is a verdict (a miss or an unschedulable plan), not a failure.
                if p.returncode not in (0, 1):
                    fail(f"rtpar simulate {name}", p)
                walls.append(wall)
                doc = json.loads(p.stdout)
            jobs = sum(t["jobs"] for t in doc["tasks"])
            med = statistics.median(walls)
            print(f"| {name} | {len(doc['tasks'])} | {doc['plan_schedulable']} | {jobs:,} | "
                  f"{doc['misses']:,} | "
                  f"{min(walls):.2f} / {med:.2f} / {max(walls):.2f} | {jobs / med:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
