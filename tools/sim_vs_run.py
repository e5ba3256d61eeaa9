#!/usr/bin/env python3
"""sim_vs_run.py — the simulator against `rtpar run` on this machine (issue 17, item 6;
docs/experiments.md, "The simulator against `rtpar run`").

For each example, the same plan is run for real and simulated, and the table of
docs/experiments.md is printed (markdown) with one line per task:

  run        `rtpar run EX --duration D --json`                     (SCHED_FIFO, default CPU cap)
  sim p50    `rtpar simulate EX --horizon D --json --overhead P --overhead-statistic p50`
  sampled    `rtpar simulate ... --overhead-statistic sampled --seed 1`
  bounds     `rtpar check EX --json`, and with `--overhead P`

Each cell is p50 / p99 / max of the response time in µs. "p99 vs sampled" is the run's p99 over
the sampled simulation's, minus 1 (the issue's target: within 20%). The last column says whether
the run's maximum stayed within the bound charged with the profile. The simulator plans with the
profile's overheads charged; where that charged set is not schedulable its plan may differ from
the one `rtpar run` runs (planned without the profile), and the simulated cells are marked `*`.

usage: tools/sim_vs_run.py [--rtpar build/rtpar] [--profile FILE | --calibrate]
                           [--duration 10s] [EXAMPLE.toml ...]
--calibrate measures the profile first (`rtpar calibrate --fifo --supply 0s --out`), in the same
minute as the runs. Without examples: demo, partitioned, partitioned_heavy, shared_cores and the OpenMP
example of the build tree. Needs SCHED_FIFO (run as root); exits 3 if `rtpar run` is refused.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rtpar_json(cmd):
    """Runs an rtpar command that prints JSON; returns (exit status, document or None)."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return p.returncode, json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(p.stderr)
        return p.returncode, None


def us(ns):
    return "-" if ns is None else f"{ns / 1000:.0f}"


def triple(a, b, c):
    return f"{us(a)} / {us(b)} / {us(c)}"


def by_name(doc):
    return {t["name"]: t for t in (doc or {}).get("tasks", [])}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rtpar", default=os.path.join(ROOT, "build", "rtpar"))
    ap.add_argument("--profile", default=os.path.join(ROOT, "experiments", "data",
                                                      "rtpar-calibrate-2c-cap.json"))
    ap.add_argument("--calibrate", action="store_true", help="measure the profile first")
    ap.add_argument("--duration", default="10s")
    ap.add_argument("examples", nargs="*")
    a = ap.parse_args()
    examples = a.examples or [
        os.path.join(ROOT, "examples", f"{n}.toml")
        for n in ("demo", "partitioned", "partitioned_heavy", "shared_cores")
    ] + [os.path.join(os.path.dirname(a.rtpar), "examples", "omp", "omp_demo.toml")]
    tmp = tempfile.mkdtemp(prefix="sim_vs_run.")
    profile = a.profile
    if a.calibrate:
        profile = os.path.join(tmp, "profile.json")
        # Without the supply loss: charged, it refuses most examples on a virtual machine, and
        # this table compares the plans that ran (docs/experiments.md, "With the supply loss
        # charged", passes a supply profile with --profile instead).
        p = subprocess.run([a.rtpar, "calibrate", "--fifo", "--supply", "0s", "--out", profile],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.stderr.write(p.stderr)
            sys.exit(p.returncode)
    print(f"profile: {profile}; duration {a.duration}\n")
    print("| example | task | run p50 / p99 / max (µs) | sim p50 / p99 / max, profile p50 "
          "| sim sampled p50 / p99 / max | p99 vs sampled | bound / with profile (µs) "
          "| max ≤ bound w/ profile |")
    print("|---|---|---|---|---|---|---|---|")
    worst = 0
    for ex in examples:
        if not os.path.exists(ex):
            print(f"{ex}: not found (build the tree first)", file=sys.stderr)
            worst = max(worst, 2)
            continue
        name = os.path.splitext(os.path.basename(ex))[0]
        status, run = rtpar_json([a.rtpar, "run", ex, "--duration", a.duration, "--json",
                                  "--allow-misses", "--overhead", "none"])
        if status == 3:
            print("rtpar run: real-time privileges refused (run as root)", file=sys.stderr)
            sys.exit(3)
        sim = [a.rtpar, "simulate", ex, "--horizon", a.duration, "--json", "--overhead", profile]
        _, s50 = rtpar_json(sim + ["--overhead-statistic", "p50"])
        _, ssa = rtpar_json(sim + ["--overhead-statistic", "sampled", "--seed", "1"])
        _, bound = rtpar_json([a.rtpar, "check", ex, "--json"])
        _, bound_o = rtpar_json([a.rtpar, "check", ex, "--json", "--overhead", profile])
        runs, s50s, ssas = by_name(run), by_name(s50), by_name(ssa)
        bounds, bounds_o = by_name(bound), by_name(bound_o)
        other_plan = "" if (s50 or {}).get("plan_schedulable") else " *"
        for task, r in runs.items():
            rr = r.get("response_ns") or {}
            x, y = s50s.get(task, {}), ssas.get(task, {})
            b = bounds.get(task, {}).get("response_bound_ns")
            bo = bounds_o.get(task, {}).get("response_bound_ns") if (bound_o or {}).get(
                "schedulable") else None
            ratio = "-"
            if y.get("response_p99_ns") and rr.get("p99"):
                ratio = f"{100.0 * (rr['p99'] / y['response_p99_ns'] - 1):+.1f}%"
            within = "-" if bo is None or rr.get("max") is None else (
                "yes" if rr["max"] <= bo else "NO")
            print(f"| {name} | {task} | {triple(rr.get('p50'), rr.get('p99'), rr.get('max'))} "
                  f"| {triple(x.get('response_p50_ns'), x.get('response_p99_ns'), x.get('max_response_ns'))}{other_plan} "
                  f"| {triple(y.get('response_p50_ns'), y.get('response_p99_ns'), y.get('max_response_ns'))}{other_plan} "
                  f"| {ratio} | {us(b)} / {us(bo)} | {within} |")
        sys.stdout.flush()
    sys.exit(worst)


if __name__ == "__main__":
    main()
