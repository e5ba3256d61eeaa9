#!/usr/bin/env python3
"""fit_ws8.py — decision WS8 of the experiments brief: fit the simulator's central-queue lock
(`--team-model centralized --queue-lock`) and steal cost (`--team-model steal`) to RTWS Table I
(RTWS §VII-A: synthetic synchronous tasks of types 1–3, OpenMP against Cilk Plus, median
execution time at 1, 6, 12, 18, 24 and 30 cores); docs/experiments.md, "RTWS Fig. 8".

Model. One segment of a type is N equal strands of length e, simulated as a task of work N·e and
span e ("C and L only": a bag of N − 1 units of e plus a chain node of e), on exactly m dedicated
cores (federated, D chosen so that ⌈(C − L)/(D − L)⌉ = m), one job. Every strand is one dequeue
under `centralized` (OpenMP's `schedule(dynamic, 1)`: one claim per iteration). Under `steal` the
segment is what `cilk_for` runs instead: a binary split tree of 1 ns nodes over the strands, then
a join (tree_task), so that a steal takes half of its victim's remaining range. Table I's times are per task (about 15 segments of N strands each: the
expected counts of its generator, RTWS §IV-A), so both sides are compared per strand:
τ(m) = time / strands. N is scaled down to --strands (the ratio of the times does not depend on
it once N ≫ m). e comes from the 1-core time: τ(1) = e + t_q (centralized) or e (steal).

The fit minimises Σ (ln τ_sim(m) − ln τ_paper(m))² over the three types and m = 6 … 30, on a grid.

usage: tools/fit_ws8.py [--rtpar build/rtpar] [--strands 3000]
Prints the fitted values and the model-vs-paper table (markdown).
"""
import argparse
import json
import math
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CORES = [1, 6, 12, 18, 24, 30]
# Table I medians in ms (RTWS), per type: OpenMP (centralized) and Cilk Plus (work stealing).
OPENMP = {1: [955.13, 173.68, 256.63, 342.20, 328.52, 311.92],
          2: [1243.7, 210.22, 111.58, 95.55, 85.97, 86.74],
          3: [948.42, 156.47, 79.03, 53.07, 39.99, 32.20]}
CILK = {1: [948.52, 160.77, 81.68, 55.42, 41.23, 33.66],
        2: [1237.2, 213.77, 107.90, 73.45, 58.95, 45.07],
        3: [902.38, 155.77, 78.80, 54.05, 40.68, 33.40]}
# Strands per task: 15 segments (U[10, 20]) × the mean strands per segment of the type.
STRANDS = {1: 15 * 150_000, 2: 15 * 15_000, 3: 15 * 1_500}



# HEADER is one task on 30 cores planned by federated; TASK adds "C and L only" to it.
HEADER = """[system]
cores = 30
planner = "federated"
[[task]]
name = "segment"
period = "10s"
deadline = "{d}ns"
"""
TASK = HEADER + """work = "{c}ns"
span = "{l}ns"
"""


def tree_task(n, e, m):
    """One segment as cilk_for runs it: a binary split tree (1 ns per split node) over n strands of
    e ns, then a join: a steal takes a whole subtree, half of what its victim had left."""
    nodes, leaves = [], []

    def split(lo, hi, parent):
        name = f"s{lo}_{hi}"
        if hi - lo == 1:
            nodes.append((name, e, parent))
            leaves.append(name)
            return
        nodes.append((name, 1, parent))
        mid = (lo + hi) // 2
        split(lo, mid, name)
        split(mid, hi, name)

    split(0, n, None)
    work = sum(length for _, length, _ in nodes) + 1
    depth = (n - 1).bit_length()  # split nodes on the longest root-to-leaf path
    span = depth + e + 1
    d = span + -(-(work - span) // m)  # federated: exactly m cores
    out = [HEADER.format(d=d)]
    for name, length, parent in nodes:
        after = f'\nafter = ["{parent}"]' if parent else ""
        out.append(f'[[task.node]]\nname = "{name}"\nlength = "{length}ns"{after}\n')
    out.append('[[task.node]]\nname = "join"\nlength = "1ns"\nafter = [' +
               ", ".join(f'"{x}"' for x in leaves) + "]\n")
    return "".join(out)


def per_strand_ns(ms, kind):
    return ms * 1e6 / STRANDS[kind]


def simulate(rtpar, tmp, n, e, m, model, tree=False):
    """Response (ns) of one job of n strands of e ns on m cores under `model` (CLI flags): a bag
    of strands (C and L only), or with `tree` a binary split tree (tree_task)."""
    c, l = n * e, e
    d = l + -(-(c - l) // m)  # ⌈(C − L)/(D − L)⌉ = m
    path = os.path.join(tmp, "segment.toml")
    with open(path, "w") as f:
        f.write(tree_task(n, e, m) if tree else TASK.format(d=d, c=c, l=l))
    p = subprocess.run([rtpar, "simulate", path, "--horizon", "10s", "--json"] + model,
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):  # 1: the job missed its (sizing) deadline, which is expected
        raise SystemExit(f"rtpar simulate failed ({p.returncode}): {p.stderr}")
    return json.loads(p.stdout)["tasks"][0]["max_response_ns"]


def fit(rtpar, tmp, n, paper, grid, model_of, e_of, tree=False):
    """The grid value with the least error: (value, error, per-type τ_sim rows, every error)."""
    best, errors = None, []
    for x in grid:
        err, rows = 0.0, {}
        for kind in (1, 2, 3):
            e = e_of(per_strand_ns(paper[kind][0], kind), x)
            if e < 1:
                err = math.inf
                break
            sims = [simulate(rtpar, tmp, n, round(e), m, model_of(x), tree) / n
                    for m in CORES[1:]]
            rows[kind] = sims
            err += sum((math.log(s) - math.log(per_strand_ns(p, kind))) ** 2
                       for s, p in zip(sims, paper[kind][1:]))
        errors.append((x, err))
        if best is None or err < best[1]:
            best = (x, err, rows)
    return best + (errors,)


def table(name, paper, rows):
    out = [f"| type | {name}: paper / model per strand (ns) at " +
           ", ".join(str(m) for m in CORES[1:]) + " cores |", "|---|---|"]
    for kind in (1, 2, 3):
        cells = [f"{per_strand_ns(p, kind):.0f} / {s:.0f}" for p, s in zip(paper[kind][1:],
                                                                            rows[kind])]
        out.append(f"| {kind} | " + ", ".join(cells) + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rtpar", default=os.path.join(ROOT, "build", "rtpar"))
    ap.add_argument("--strands", type=int, default=3000)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fit_ws8.")
    n = a.strands

    lock_grid = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 175, 200, 250,
                 300, 400]
    cg = fit(a.rtpar, tmp, n, OPENMP, lock_grid,
             lambda t: ["--team-model", "centralized", "--queue-lock", f"{t}ns"],
             lambda tau1, t: tau1 - t)
    print(f"centralized: queue lock t_q = {cg[0]} ns (error {cg[1]:.3f}; e = tau(1) - t_q)")
    print("errors: " + ", ".join(f"{x} ns {e:.2f}" for x, e in cg[3]) + "\n")
    print(table("OpenMP", OPENMP, cg[2]) + "\n")

    steal_grid = [1, 10, 20, 50, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000]
    ws = fit(a.rtpar, tmp, n, CILK, steal_grid,
             lambda s: ["--team-model", "steal", "--steal-cost", f"{s}ns", "--steal-attempt",
                        f"{s}ns", "--spawn-cost", "0ns"],
             lambda tau1, s: tau1, tree=True)
    print(f"steal: steal cost = failed attempt = {ws[0]} ns, spawn 0, binary split tree "
          f"(error {ws[1]:.3f})")
    print("errors: " + ", ".join(f"{x} ns {e:.2f}" for x, e in ws[3]) + "\n")
    print(table("Cilk Plus", CILK, ws[2]))


if __name__ == "__main__":
    main()
