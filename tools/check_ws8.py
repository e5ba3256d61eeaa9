#!/usr/bin/env python3
"""check_ws8.py — decision WS8 of the experiments brief, second half: validate the steal cost that
tools/fit_ws8.py fits to RTWS Table I (best 150 ns, bounded above by about 500 ns) at 1–2 cores
against `rtpar bench steal` here; docs/experiments.md, "RTWS Fig. 8".

Measurement. `rtpar bench steal --runtimes rtpar --variants isolated --threads 1,2` (SCHED_OTHER,
no privilege) runs the parallel_for kernels on rtpar's own work-stealing runtime:
  matmul  steal::parallel_for(0, n, 1, row): one leaf per row of C (n = 256);
  heat    per sweep, steal::parallel_for(0, blocks, 1, block) over blocks of kHeatGrain = 8
          interior rows (n = 256: 254 rows, 32 blocks, the last of 6 rows); 100 sweeps in one
          Pool::run, the next sweep after the previous one's join
(bench/programs/steal_rtpar.cpp); with --fifo at SCHED_FIFO 10 (the bench's --fifo: then no
SCHED_OTHER process can preempt a worker). The bench is run --rounds times; each run gives the
p50 of --reps repetitions per worker count, and the tool takes the median of those p50s (T1, T2).
A SCHED_OTHER worker preempted by another process holds its piece (the row or block it is in)
until it runs again, and the join waits for it: on a busy machine T2 is then a timeslice longer.

Model. The same kernel as a DAG for `rtpar simulate --team-model steal`: per parallel_for a
binary split tree over its leaves (mid = lo + (hi − lo) / 2, as parallel_for splits; 1 ns per
split node, then a 1 ns join: fit_ws8.tree_task's shape, so a steal takes half of what its victim
had left), heat's sweeps chained join → next root. Leaf lengths come from the measured 1-worker
time: matmul e = T1 / n; heat e_row = T1 / (steps · rows), a block = its rows · e_row. One job on
exactly 1 and 2 dedicated cores (federated; D sized as in fit_ws8), steal cost = failed attempt
= s for each --steal-costs value, spawn 0 (fit_ws8's flags). Compared: simulated T2 and speedup
(simulated T1 / T2) against the measured ones; error = simulated / measured − 1.

Assumptions and gaps. rtpar's parallel_for splits lazily (only while its deque is empty), so it
spawns far fewer nodes than the eager tree; with spawn cost 0 and 1 ns splits that changes the
work by nanoseconds, not the steals' shape. Not modelled: waking the sleeping workers at each
Pool::run, cache and memory effects, the hypervisor and other processes taking a CPU (the
measured T2 includes all of them). A measured speedup below the model's is therefore expected;
it bounds what the steal cost alone can explain, it does not fit it.

usage: tools/check_ws8.py [--rtpar build/rtpar] [--kernels matmul,heat] [--rounds 7]
                          [--reps 50] [--steal-costs 150,500] [--fifo] [--quick] [--json FILE]
Prints the measured-vs-simulated table (markdown): per kernel a "median" row (the above) and a
"min" row (the fastest repetition of all runs at each worker count: the least disturbed), and the
least steal cost at which the simulated T2 reaches the measured one (what the steal cost alone
would have to be to explain the gap). About 10–15 s at the defaults, 2–7 s with --quick
(longer when the machine is busy or with --fifo, whose rests double the bench's time).
Exit 0 whatever the error; 1 on tool errors (bench or simulator failed, output unreadable), 2 on
bad options.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in tools/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_ws8  # noqa: E402  (HEADER, ROOT: the task template and repository root of the fit)

KERNELS = ("matmul", "heat")
BENCH_SOURCE = os.path.join(fit_ws8.ROOT, "bench", "programs", "steal_rtpar.cpp")


class ToolError(Exception):
    """A failure of the tool or of a program it runs (not a large model error)."""


def heat_grain():
    """kHeatGrain of the rtpar bench program (rows per heat block), read from its source; 8 when
    the source is not there."""
    try:
        with open(BENCH_SOURCE) as f:
            m = re.search(r"kHeatGrain\s*=\s*(\d+)", f.read())
        return int(m.group(1)) if m else 8
    except OSError:
        return 8


def run_bench(rtpar, kernels, reps, timeout, fifo=False):
    """One `rtpar bench steal` run of `kernels` on rtpar at 1 and 2 workers (isolated,
    SCHED_OTHER, or SCHED_FIFO 10 with `fifo`): {(kernel, threads): row} from its --json
    output."""
    cmd = [rtpar, "bench", "steal", "--bench", ",".join(kernels), "--threads", "1,2",
           "--runtimes", "rtpar", "--variants", "isolated", "--reps", str(reps), "--json"]
    if fifo:
        cmd.append("--fifo")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise ToolError(f"{' '.join(cmd)}: no result after {timeout} s") from e
    if p.returncode != 0:
        raise ToolError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    try:
        rows = json.loads(p.stdout)["results"]
    except (ValueError, KeyError) as e:
        raise ToolError(f"unreadable bench output: {e}") from e
    out = {(r["benchmark"], r["threads"]): r for r in rows if r.get("runtime") == "rtpar"}
    for k in kernels:
        for t in (1, 2):
            if (k, t) not in out:
                raise ToolError(f"bench output has no rtpar row for {k} at {t} threads")
    return out


def parse_size(size):
    """The bench row's `size` ("n=256" or "n=256,steps=100") as a dict of ints."""
    return {k: int(v) for k, v in (kv.split("=") for kv in size.split(","))}


def leaves_of(kernel, size, t1_ns, grain):
    """The kernel's parallel_for structure: (sweeps, leaf lengths in ns of one sweep), the leaves
    sharing the measured 1-worker time t1_ns in proportion to their rows."""
    n = size["n"]
    if kernel == "matmul":  # parallel_for(0, n, 1): one row per leaf
        return 1, [max(1, round(t1_ns / n))] * n
    steps = size["steps"]  # heat: blocks of `grain` of the n − 2 interior rows, per sweep
    rows = n - 2
    e_row = t1_ns / (steps * rows)
    blocks = [min(grain, rows - lo) for lo in range(0, rows, grain)]
    return steps, [max(1, round(b * e_row)) for b in blocks]


def sweep_tree_task(sweeps, leaves, m):
    """`sweeps` parallel_for trees in a chain (fit_ws8.tree_task's shape per sweep: 1 ns split
    nodes, split at lo + (hi − lo) / 2, a 1 ns join), as a TOML task on exactly m federated
    cores of a 2-core system."""
    nodes = []

    def split(sweep, lo, hi, parent):
        name = f"w{sweep}_{lo}_{hi}"
        if hi - lo == 1:
            nodes.append((name, leaves[lo], [parent] if parent else []))
            return [name]
        nodes.append((name, 1, [parent] if parent else []))
        mid = lo + (hi - lo) // 2
        return split(sweep, lo, mid, name) + split(sweep, mid, hi, name)

    prev = None
    for s in range(sweeps):
        tips = split(s, 0, len(leaves), prev)
        prev = f"join{s}"
        nodes.append((prev, 1, tips))
    work = sum(length for _, length, _ in nodes)
    depth = (len(leaves) - 1).bit_length()
    span = sweeps * (depth + max(leaves) + 1)  # an upper bound is enough for sizing D
    d = span + -(-(work - span) // m)  # federated: exactly m cores
    out = [fit_ws8.HEADER.replace("cores = 30", "cores = 2").format(d=d)]
    for name, length, after in nodes:
        dep = ("\nafter = [" + ", ".join(f'"{x}"' for x in after) + "]") if after else ""
        out.append(f'[[task.node]]\nname = "{name}"\nlength = "{length}ns"{dep}\n')
    return "".join(out)


def simulate(rtpar, tmp, sweeps, leaves, m, steal_ns):
    """Response (ns) of one job of the kernel's DAG on m dedicated cores under the steal model
    with steal cost = failed attempt = steal_ns and spawn 0 (fit_ws8's flags)."""
    path = os.path.join(tmp, f"kernel_{m}.toml")
    with open(path, "w") as f:
        f.write(sweep_tree_task(sweeps, leaves, m))
    model = ["--team-model", "steal", "--steal-cost", f"{steal_ns}ns", "--steal-attempt",
             f"{steal_ns}ns", "--spawn-cost", "0ns"]
    p = subprocess.run([rtpar, "simulate", path, "--horizon", "10s", "--json"] + model,
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):  # 1: the job missed its (sizing) deadline
        raise ToolError(f"rtpar simulate failed ({p.returncode}): {p.stderr.strip()}")
    try:
        return json.loads(p.stdout)["tasks"][0]["max_response_ns"]
    except (ValueError, KeyError, IndexError) as e:
        raise ToolError(f"unreadable simulate output: {e}") from e


def implied_steal_cost(rtpar, tmp, sweeps, leaves, t2, hi=1_000_000):
    """The least steal cost (ns, = failed attempt, spawn 0) at which the simulated 2-core time
    reaches the measured t2: what the steal cost alone would have to be to explain the
    measurement. Scans 1, 2, 5, 10, … ns up to hi, then bisects (to 2%) between the last grid
    value below t2 and the first at or above it: the simulated time is not monotone once a steal
    is as long as a sweep (heat, ≳ 10 µs), so a plain bisection over the whole range could land
    anywhere. None if the model is at or above t2 even at 1 ns; hi + 1 if below it up to hi."""
    grid, x = [], 1
    while x <= hi:
        grid += [v for v in (x, 2 * x, 5 * x) if v <= hi]
        x *= 10
    lo = None
    for g in grid:
        if simulate(rtpar, tmp, sweeps, leaves, 2, g) >= t2:
            if lo is None:
                return None
            hi = g
            break
        lo = g
    else:
        return hi + 1
    while hi - lo > max(1, lo // 50):
        mid = (lo + hi) // 2
        if simulate(rtpar, tmp, sweeps, leaves, 2, mid) < t2:
            lo = mid
        else:
            hi = mid
    return hi


def measure(a, kernels):
    """Run the bench a.rounds times: per kernel the medians of the rounds' p50s (t1, t2), the
    fastest repetitions seen (min1, min2), the pool's measured steal cost and steals at 2 workers
    (medians), the size, and every round's p50s."""
    per = {k: {"p50_1": [], "p50_2": [], "min_1": [], "min_2": [], "steal_cost": [],
               "steals": [], "host_steal": []} for k in kernels}
    sizes, loads = {}, []
    for _ in range(a.rounds):
        loads.append(os.getloadavg()[0])
        rows = run_bench(a.rtpar, kernels, a.reps, a.timeout, a.fifo)
        for k in kernels:
            r1, r2 = rows[(k, 1)], rows[(k, 2)]
            sizes[k] = r1["size"]
            per[k]["p50_1"].append(r1["p50_ns"])
            per[k]["p50_2"].append(r2["p50_ns"])
            per[k]["min_1"].append(r1["min_ns"])
            per[k]["min_2"].append(r2["min_ns"])
            per[k]["steal_cost"].append(r2.get("steal_cost_ns", 0))
            per[k]["steals"].append(r2.get("steals", 0))
            per[k]["host_steal"].append(r1.get("host_steal_ns", 0) + r2.get("host_steal_ns", 0))
    out = {}
    for k in kernels:
        v = per[k]
        out[k] = {"size": sizes[k], "t1_ns": statistics.median(v["p50_1"]),
                  "t2_ns": statistics.median(v["p50_2"]), "min1_ns": min(v["min_1"]),
                  "min2_ns": min(v["min_2"]),
                  "pool_steal_cost_ns": statistics.median(v["steal_cost"]),
                  "pool_steals": statistics.median(v["steals"]),
                  "host_steal_ns": sum(v["host_steal"]),
                  "rounds_p50_1_ns": v["p50_1"], "rounds_p50_2_ns": v["p50_2"],
                  "rounds_loadavg_1min": loads}
    return out


def compare(a, tmp, kernel, size, t1, t2, label):
    """One table row: the measured t1, t2 against the simulation of the kernel built from t1, at
    every steal cost of a.steal_costs."""
    sweeps, leaves = leaves_of(kernel, parse_size(size), t1, heat_grain())
    row = {"kernel": kernel, "statistic": label, "size": size, "sweeps": sweeps,
           "leaves_per_sweep": len(leaves), "leaf_ns": sorted(set(leaves)), "t1_ns": t1,
           "t2_ns": t2, "speedup": t1 / t2, "sim": []}
    for s in a.steal_costs:
        s1 = simulate(a.rtpar, tmp, sweeps, leaves, 1, s)
        s2 = simulate(a.rtpar, tmp, sweeps, leaves, 2, s)
        row["sim"].append({"steal_cost_ns": s, "t1_ns": s1, "t2_ns": s2, "speedup": s1 / s2,
                           "t2_rel_error": s2 / t2 - 1,
                           "speedup_rel_error": (s1 / s2) / (t1 / t2) - 1})
    row["implied_steal_cost_ns"] = implied_steal_cost(a.rtpar, tmp, sweeps, leaves, t2)
    return row


def table(rows, costs):
    """The comparison as a markdown table (times in ms)."""
    head = "| kernel | T1 ms | T2 ms | speedup | " + " | ".join(
        f"sim T2 @{s} ns | sim speedup @{s} ns | T2 error @{s} ns" for s in costs) + \
        " | steal cost matching T2 |"
    out = [head, "|" + "---|" * (5 + 3 * len(costs))]
    for r in rows:
        cells = [f"{r['kernel']} ({r['statistic']})", f"{r['t1_ns'] / 1e6:.3f}",
                 f"{r['t2_ns'] / 1e6:.3f}", f"{r['speedup']:.2f}"]
        for s in r["sim"]:
            cells += [f"{s['t2_ns'] / 1e6:.3f}", f"{s['speedup']:.2f}",
                      f"{100 * s['t2_rel_error']:+.0f}%"]
        x = r["implied_steal_cost_ns"]
        cells.append("none (model slower)" if x is None else
                     "> 1 ms" if x > 1_000_000 else f"{x / 1e3:.1f} µs")
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rtpar", default=os.path.join(fit_ws8.ROOT, "build", "rtpar"))
    ap.add_argument("--kernels", default="matmul,heat",
                    help="comma list of matmul, heat (default both)")
    ap.add_argument("--rounds", type=int, default=None, help="bench runs (default 7, quick 2)")
    ap.add_argument("--reps", type=int, default=None,
                    help="repetitions per bench run and worker count (default 50, quick 10)")
    ap.add_argument("--steal-costs", default="150,500", help="simulated steal costs, ns")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per bench run")
    ap.add_argument("--fifo", action="store_true",
                    help="bench threads at SCHED_FIFO 10 (needs CAP_SYS_NICE; other processes "
                    "then cannot preempt a worker)")
    ap.add_argument("--quick", action="store_true", help="smoke test: 2 rounds of 10 reps")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    a = ap.parse_args()
    kernels = [k for k in a.kernels.split(",") if k]
    if not kernels or any(k not in KERNELS for k in kernels):
        ap.error(f"--kernels: a comma list of {', '.join(KERNELS)}")
    try:
        a.steal_costs = [int(x) for x in a.steal_costs.split(",") if x]
    except ValueError:
        ap.error("--steal-costs: integers (ns)")
    if a.rounds is None:
        a.rounds = 2 if a.quick else 7
    if a.reps is None:
        a.reps = 10 if a.quick else 50
    if a.rounds < 1 or a.reps < 1 or not a.steal_costs or min(a.steal_costs) < 1:
        ap.error("--rounds, --reps and --steal-costs must be positive")
    if not os.access(a.rtpar, os.X_OK):
        print(f"check_ws8: {a.rtpar} not found (build it first)", file=sys.stderr)
        return 1
    if len(os.sched_getaffinity(0)) < 2:
        print("check_ws8: 2 workers need 2 CPUs; this process may use "
              f"{len(os.sched_getaffinity(0))}", file=sys.stderr)
        return 1

    start = time.time()
    try:
        with tempfile.TemporaryDirectory(prefix="check_ws8.") as tmp:
            meas = measure(a, kernels)
            rows = []
            for k in kernels:
                m = meas[k]
                rows.append(compare(a, tmp, k, m["size"], m["t1_ns"], m["t2_ns"], "median"))
                rows.append(compare(a, tmp, k, m["size"], m["min1_ns"], m["min2_ns"], "min"))
    except ToolError as e:
        print(f"check_ws8: {e}", file=sys.stderr)
        return 1
    wall = time.time() - start

    sched = "SCHED_FIFO 10" if a.fifo else "SCHED_OTHER"
    print(f"WS8 check: rtpar bench steal (rtpar runtime, isolated, {sched}) vs rtpar simulate "
          f"--team-model steal (spawn 0, failed attempt = steal cost); {a.rounds} bench runs x "
          f"{a.reps} reps; median = median over runs of each run's p50, min = fastest repetition; "
          f"error = simulated / measured - 1; last column: the least steal cost at "
          f"which the simulated T2 reaches the measured one\n")
    print(table(rows, a.steal_costs) + "\n")
    for k in kernels:
        m = meas[k]
        print(f"- {k} ({m['size']}): per-run p50 T1 ms " +
              ", ".join(f"{x / 1e6:.3f}" for x in m["rounds_p50_1_ns"]) + "; T2 ms " +
              ", ".join(f"{x / 1e6:.3f}" for x in m["rounds_p50_2_ns"]) +
              f"; pool's measured steal cost {m['pool_steal_cost_ns']:.0f} ns, "
              f"{m['pool_steals']:.0f} steals in the last 2-worker repetition (medians over runs); "
              f"host steal {m['host_steal_ns'] / 1e6:.1f} ms")
    print(f"- {wall:.1f} s; 1-min load average before each run " +
          ", ".join(f"{x:.2f}" for x in meas[kernels[0]]["rounds_loadavg_1min"]) +
          f"; {os.getloadavg()[0]:.2f} at the end")
    if a.json:
        doc = {"rounds": a.rounds, "reps": a.reps, "sched": sched, "steal_costs_ns": a.steal_costs,
               "spawn_cost_ns": 0, "wall_s": wall, "loadavg_1min": os.getloadavg()[0],
               "measured": meas, "rows": rows}
        try:
            with open(a.json, "w") as f:
                json.dump(doc, f, indent=1)
                f.write("\n")
        except OSError as e:
            print(f"check_ws8: {a.json}: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
