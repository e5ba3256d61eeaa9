#!/usr/bin/env python3
# partitioned_heavy_sim.py — random task sets with one heavy team task (C > D, one thread per core on
# 2..8 cores, segments or C and L, EDF or a static priority) and 0..4 light tasks pinned to one
# core, planned by `partitioned` and simulated by `rtpar simulate --json`. Prints how many sets were
# admitted, and every simulated response above its bound or deadline miss (there must be none;
# docs/analysis/partitioned.md, "Simulation check"). Exit status 1 if any.
#   python3 tools/partitioned_heavy_sim.py build/rtpar 500 20261124
# Admission is the plan's verdict (`plan_schedulable`); only admitted plans are checked.
# With --overhead FILE (a `rtpar calibrate` profile) every set is also planned with the profile
# charged and simulated with the same overheads injected (`--overhead-statistic S`, default p99.9,
# charged as S; `sampled` draws each instance from the profile and is charged at its max): prints
# what charging costs partitioned in admitted sets and admitted utilization (Σ U of the admitted
# sets / Σ U of all), and checks the charged bounds against the injected schedules ("Measured
# overheads", same document).
#   python3 tools/partitioned_heavy_sim.py build/rtpar 500 20261124 \
#       --overhead experiments/data/rtpar-calibrate-2c-ovh.json
import argparse, json, random, subprocess, sys, tempfile
from fractions import Fraction

ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("rtpar")
ap.add_argument("sets", type=int)
ap.add_argument("seed", type=int)
ap.add_argument("--overhead", help="overhead profile: plan with and without it, inject it")
ap.add_argument("--overhead-statistic", default="p99.9",
                help="statistic injected by the simulator (p50, p99, p99.9, max, sampled)")
ap.add_argument("--cores", default="2..8",
                help="LO..HI: the heavy task's team size (and the set's cores), drawn uniformly")
args = ap.parse_args()
lo_cores, hi_cores = (int(v) for v in args.cores.split(".."))
rtpar, n, seed = args.rtpar, args.sets, args.seed
workdir = tempfile.mkdtemp(prefix="rtpar-heavy-")
rng = random.Random(seed)
periods = [8, 12, 16, 24, 48]  # ms
admitted, above, jobs = {"plain": 0, "charged": 0}, {"plain": 0, "charged": 0}, {"plain": 0, "charged": 0}
util_all, util_admitted = Fraction(0), {"plain": Fraction(0), "charged": Fraction(0)}
worst = {"plain": 0.0, "charged": 0.0}
for i in range(n):
    cores = rng.randint(lo_cores, hi_cores)
    p = rng.choice(periods[1:]); d = p if rng.random() < .5 else rng.randint((p + 1) // 2, p)
    lines = ["[system]", f"cores = {list(range(cores))}", 'planner = "partitioned"', ""]
    while True:
        segs = []; work = span = 0
        if rng.random() < .5:
            for s in range(rng.randint(1, 3)):
                st = rng.randint(1, 2 * cores); ln = rng.randint(100, max(100, d * 1000 // 4))
                segs.append((st, ln)); work += st * ln; span += ln
        else:
            span = rng.randint(100, d * 500); work = span + rng.randint(d * 500, cores * d * 1000)
        if work > d * 1000: break
    util = Fraction(work, p * 1000)  # C/T, both in µs
    lines += ["[[task]]", 'name = "h"', f'period = "{p}ms"', f'deadline = "{d}ms"',
              f"places = {list(range(cores))}"]
    if rng.random() < .5: lines.append(f"priority = {rng.randint(1, 20)}")
    if segs:
        for st, ln in segs: lines += ["[[task.segment]]", f"strands = {st}", f'length = "{ln}us"']
    else:
        lines += [f'work = "{work}us"', f'span = "{span}us"']
    for k in range(rng.randint(0, 4)):
        q = rng.choice(periods)
        w = rng.randint(100, q * 250)
        util += Fraction(w, q * 1000)
        lines += ["", "[[task]]", f'name = "l{k}"', f'period = "{q}ms"',
                  f'work = "{w}us"', f"places = [{rng.randrange(cores)}]"]
        if rng.random() < .3: lines.append(f'phase = "{rng.randrange(q * 1000)}us"')
        if rng.random() < .5: lines.append(f"priority = {rng.randint(1, 20)}")
    path = f"{workdir}/set{i}.toml"
    open(path, "w").write("\n".join(lines) + "\n")
    util_all += util
    runs = [("plain", [])]
    if args.overhead:
        charged = "max" if args.overhead_statistic == "sampled" else args.overhead_statistic
        runs.append(("charged", ["--overhead", args.overhead, "--charged-statistic", charged,
                                 "--overhead-statistic", args.overhead_statistic, "--seed", str(i)]))
    for kind, extra in runs:
        # simulate's exit status says whether the simulation missed; admission is plan_schedulable.
        out = subprocess.run([rtpar, "simulate", path, "--json"] + extra, capture_output=True,
                             text=True)
        if out.returncode not in (0, 1):
            print("error", path, out.stderr); continue
        sim = json.loads(out.stdout)
        if not sim["plan_schedulable"]: continue
        admitted[kind] += 1; util_admitted[kind] += util
        for t in sim["tasks"]:
            jobs[kind] += t.get("jobs", 0)
            r, b = t.get("max_response_ns"), t.get("response_bound_ns")
            if r is not None and b is not None:
                worst[kind] = max(worst[kind], r / b)
                if r > b: above[kind] += 1; print("ABOVE", kind, path, t["name"], r, b)
            if t.get("misses", 0): above[kind] += 1; print("MISS", kind, path, t["name"])
def share(u): return float(u / util_all) if util_all else 0.0
for kind in ("plain", "charged") if args.overhead else ("plain",):
    what = ("nothing charged" if kind == "plain" else
            f"{args.overhead} charged ({'max' if args.overhead_statistic == 'sampled' else args.overhead_statistic}), "
            f"injected ({args.overhead_statistic})")
    print(f"{what}: sets {n}, admitted {admitted[kind]} (admitted utilization "
          f"{share(util_admitted[kind]):.3f}), simulated jobs {jobs[kind]}, responses above bound "
          f"or missed {above[kind]}, max R/bound {worst[kind]:.3f}")
print(f"sets in {workdir}")
sys.exit(1 if sum(above.values()) else 0)
