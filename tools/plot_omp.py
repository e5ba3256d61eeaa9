#!/usr/bin/env python3
"""plot_omp.py — plots `rtpar bench omp --json` results as PNGs (docs/bench-omp.md).

  rtpar bench omp --json --raw > omp.json
  python3 tools/plot_omp.py --json omp.json --out plots/

One figure per benchmark:
  omp_sync.png, omp_sched.png  per construct, one bar per runtime at the p50 overhead (ns, log),
                               a tick at p99 and a cross at max; overheads <= 0 (noise around
                               nothing) are drawn at 1 ns.
  omp_task.png                 fib and nqueens: p50 time per run (ms) with p99 and max.
  omp_periodic.png             per runtime and wait policy: p50, p99 and max response time (us,
                               log) and the number of stalls (> 10 ms) in the label.
With --raw in the JSON (samples_ns), also omp_periodic_timeline.png: every release's response
time over the run, where an RT-throttling stall shows as a spike of tens of ms.
Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

# RUNTIME_ORDER fixes the order (and colours) of the runtimes; others come after.
RUNTIME_ORDER = ["rtpar", "libgomp", "libomp", "clang+rtpar", "clang+libomp", "rtpar-active",
                 "libgomp-active", "libomp-active", "clang+rtpar-active", "clang+libomp-active"]


def runtimes_of(rows):
    """runtimes_of lists the runtimes present in rows, in RUNTIME_ORDER."""
    present = {r["runtime"] for r in rows}
    rank = {n: i for i, n in enumerate(RUNTIME_ORDER)}
    return sorted(present, key=lambda n: (rank.get(n, len(rank)), n))


def title_of(doc, what):
    """title_of is a figure title with the run's configuration."""
    cfg = doc.get("config", {})
    return f"rtpar bench omp — {what} ({cfg.get('threads', '?')} threads)"


def plot_bars(doc, bench, unit, scale, out_dir, what):
    """plot_bars draws one group of bars per construct (p50), with p99 ticks and max crosses."""
    rows = [r for r in doc["results"] if r["bench"] == bench]
    if not rows:
        return None
    constructs = list(dict.fromkeys(r["construct"] for r in rows))
    rts = runtimes_of(rows)
    by = {(r["runtime"], r["construct"]): r for r in rows}
    width = 0.8 / len(rts)
    fig, ax = plt.subplots(figsize=(10, 0.55 * len(constructs) * len(rts) + 1.5))
    for i, rt in enumerate(rts):
        ys, p50, p99, mx = [], [], [], []
        for j, c in enumerate(constructs):
            r = by.get((rt, c))
            if r is None:
                continue
            ys.append(j + (i - (len(rts) - 1) / 2) * width)
            p50.append(max(r["p50_ns"] * scale, 1e-3 if scale != 1 else 1.0))
            p99.append(max(r["p99_ns"] * scale, 1e-3 if scale != 1 else 1.0))
            mx.append(max(r["max_ns"] * scale, 1e-3 if scale != 1 else 1.0))
        ax.barh(ys, p50, height=width, color=f"C{i}", label=f"{rt} p50")
        ax.plot(p99, ys, "|", color="k", markersize=9)
        ax.plot(mx, ys, "x", color=f"C{i}", markersize=5)
    ax.plot([], [], "|", color="k", label="p99")
    ax.plot([], [], "x", color="0.4", label="max")
    ax.set_yticks(range(len(constructs)))
    ax.set_yticklabels(constructs)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel(unit)
    ax.set_title(title_of(doc, what))
    ax.grid(True, which="both", axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    path = os.path.join(out_dir, f"omp_{bench}.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_periodic(doc, out_dir):
    """plot_periodic draws p50, p99 and max response time per runtime, stalls in the labels."""
    rows = [r for r in doc["results"] if r["bench"] == "periodic"]
    if not rows:
        return []
    rts = runtimes_of(rows)
    by = {r["runtime"]: r for r in rows}
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(rts) + 1.8))
    marks = [("p50_ns", "o", "p50"), ("p99_ns", "s", "p99"), ("max_ns", "x", "max")]
    for y, rt in enumerate(rts):
        r = by[rt]
        xs = [max(r[k] / 1e3, 1e-3) for k, _, _ in marks]
        ax.plot(xs, [y] * len(xs), "-", color="0.7")
        for i, (k, m, label) in enumerate(marks):
            ax.plot(xs[i], y, m, color=f"C{i}", label=label if y == 0 else None)
    ax.set_yticks(range(len(rts)))
    ax.set_yticklabels([f"{rt} ({by[rt].get('stalls', '?')} stalls, {by[rt].get('sched', '?')})"
                        for rt in rts])
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("response time per release, us (log)")
    ax.axvline(10_000, color="r", linestyle=":", linewidth=1)  # the stall threshold, 10 ms
    ax.set_title(title_of(doc, "periodic region, 1 release per period"))
    ax.grid(True, which="both", axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    paths = [os.path.join(out_dir, "omp_periodic.png")]
    fig.tight_layout()
    fig.savefig(paths[0], dpi=120)
    plt.close(fig)
    if any("samples_ns" in by[rt] for rt in rts):
        fig, ax = plt.subplots(figsize=(10, 5))
        for i, rt in enumerate(rts):
            if "samples_ns" in by[rt]:
                ax.plot([v / 1e3 for v in by[rt]["samples_ns"]], ".", markersize=2,
                        color=f"C{i}", label=rt)
        ax.set_yscale("log")
        ax.set_xlabel("release")
        ax.set_ylabel("response time, us (log)")
        ax.axhline(10_000, color="r", linestyle=":", linewidth=1)
        ax.set_title(title_of(doc, "periodic response over the run (stalls are spikes)"))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, markerscale=4)
        paths.append(os.path.join(out_dir, "omp_periodic_timeline.png"))
        fig.tight_layout()
        fig.savefig(paths[-1], dpi=120)
        plt.close(fig)
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", required=True, help="output of rtpar bench omp --json [--raw]")
    ap.add_argument("--out", default=".", help="directory for the PNGs (default: .)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with open(args.json) as f:
        doc = json.load(f)
    written = [
        plot_bars(doc, "sync", "overhead per construct, ns (log)", 1.0, args.out,
                  "EPCC syncbench"),
        plot_bars(doc, "sched", "overhead per loop, ns (log)", 1.0, args.out,
                  "EPCC schedbench"),
        plot_bars(doc, "task", "time per run, ms (log)", 1e-6, args.out, "task overhead"),
    ]
    written += plot_periodic(doc, args.out)
    for path in written:
        if path:
            print(path)


if __name__ == "__main__":
    main()
