#!/usr/bin/env python3
# partitioned_heavy_sim.py — random task sets with one heavy team task (C > D, one thread per core on
# 2..8 cores, segments or C and L, EDF or a static priority) and 0..4 light tasks pinned to one
# core, planned by `partitioned` and simulated by `rtpar simulate --json`. Prints how many sets were
# admitted, and every simulated response above its bound or deadline miss (there must be none;
# docs/analysis/partitioned.md, "Simulation check"). Exit status 1 if any.
#   python3 tools/partitioned_heavy_sim.py build/rtpar 500 20261124
import json, random, subprocess, sys, tempfile
rtpar, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
workdir = tempfile.mkdtemp(prefix="rtpar-heavy-")
rng = random.Random(seed)
periods = [8, 12, 16, 24, 48]  # ms
admitted = above = jobs = 0
worst = 0.0
for i in range(n):
    cores = rng.randint(2, 8)
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
    lines += ["[[task]]", 'name = "h"', f'period = "{p}ms"', f'deadline = "{d}ms"',
              f"places = {list(range(cores))}"]
    if rng.random() < .5: lines.append(f"priority = {rng.randint(1, 20)}")
    if segs:
        for st, ln in segs: lines += ["[[task.segment]]", f"strands = {st}", f'length = "{ln}us"']
    else:
        lines += [f'work = "{work}us"', f'span = "{span}us"']
    for k in range(rng.randint(0, 4)):
        q = rng.choice(periods)
        lines += ["", "[[task]]", f'name = "l{k}"', f'period = "{q}ms"',
                  f'work = "{rng.randint(100, q * 250)}us"', f"places = [{rng.randrange(cores)}]"]
        if rng.random() < .3: lines.append(f'phase = "{rng.randrange(q * 1000)}us"')
        if rng.random() < .5: lines.append(f"priority = {rng.randint(1, 20)}")
    path = f"{workdir}/set{i}.toml"
    open(path, "w").write("\n".join(lines) + "\n")
    out = subprocess.run([rtpar, "simulate", path, "--json"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        print("error", path, out.stderr); continue
    sim = json.loads(out.stdout)
    if out.returncode != 0: continue
    admitted += 1
    for t in sim["tasks"]:
        jobs += t.get("jobs", 0)
        r, b = t.get("max_response_ns"), t.get("response_bound_ns")
        if r is not None and b is not None:
            worst = max(worst, r / b)
            if r > b: above += 1; print("ABOVE", path, t["name"], r, b)
        if t.get("misses", 0): above += 1; print("MISS", path, t["name"])
print(f"sets {n}, admitted {admitted}, simulated jobs {jobs}, responses above bound or missed "
      f"{above}, max R/bound {worst:.3f} (sets in {workdir})")
sys.exit(1 if above else 0)
