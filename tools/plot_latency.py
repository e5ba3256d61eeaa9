#!/usr/bin/env python3
"""plot_latency.py — histograms of `rtpar bench latency --samples DIR` output.

Usage: tools/plot_latency.py DIR [--out FILE.png] [--clip-us X]

Reads DIR/sched_latency.csv and DIR/barrier_latency_<wait>.csv (column latency_ns: the job-level
sample of each trial) and draws one histogram per file, stacked, on a log-scaled count axis so the
rare tail — the part real-time analysis cares about — stays visible next to the bulk. Percentile
markers use the same nearest-rank definition as rtpar::percentile, so they match the CLI's table.
Needs matplotlib (python3-matplotlib); without it, prints the percentiles only.
"""
import argparse
import csv
import glob
import math
import os
import sys

QUANTILES = [(0.25, "p25"), (0.50, "p50"), (0.75, "p75"), (0.95, "p95"), (0.99, "p99"),
             (1.0, "max")]


def nearest_rank(sorted_values, q):
    """nearest_rank is rtpar::percentile: the ceil(q·n)-th smallest value (1-based), with q·n
    within rounding noise of an integer taken as that integer (0.07·100 is 7, not 8)."""
    if not sorted_values:
        return 0
    x = q * len(sorted_values)
    rank = round(x) if abs(x - round(x)) <= 1e-9 * max(1.0, round(x)) else math.ceil(x)
    rank = max(1, rank)
    return sorted_values[min(rank, len(sorted_values)) - 1]


def load(path):
    """load returns the latency_ns column of one samples file, in µs, ascending."""
    with open(path, newline="") as f:
        return sorted(int(row["latency_ns"]) / 1000.0 for row in csv.DictReader(f))


def title_of(path):
    """title_of names a file as the CLI's table names its row."""
    name = os.path.basename(path)[:-len(".csv")]
    if name == "sched_latency":
        return "scheduling latency"
    return "barrier latency (" + name[len("barrier_latency_"):] + ")"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="directory written by rtpar bench latency --samples")
    parser.add_argument("--out", help="PNG to write (default: DIR/latency.png)")
    parser.add_argument("--clip-us", type=float, default=None,
                        help="put samples above X µs in the last bin (the max is still marked)")
    args = parser.parse_args()

    files = sorted(glob.glob(os.path.join(args.dir, "sched_latency.csv")))
    order = {"spin": 0, "block": 1, "hybrid": 2}  # the CLI's row order

    def wait_of(path):
        return os.path.basename(path)[len("barrier_latency_"):-len(".csv")]

    files += sorted(glob.glob(os.path.join(args.dir, "barrier_latency_*.csv")),
                    key=lambda p: (order.get(wait_of(p), len(order)), p))
    if not files:
        sys.exit(f"plot_latency: no sched_latency.csv or barrier_latency_*.csv in {args.dir}")
    series = [(title_of(p), load(p)) for p in files]
    for title, values in series:
        marks = "  ".join(f"{n}={nearest_rank(values, q):.1f}" for q, n in QUANTILES)
        print(f"{title:26s} n={len(values):6d}  {marks}  (µs)")

    try:
        import matplotlib
        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_latency: matplotlib not installed (apt install python3-matplotlib): no PNG",
              file=sys.stderr)
        return

    fig, axes = plt.subplots(len(series), 1, figsize=(8, 2.4 * len(series)), squeeze=False)
    for ax, (title, values) in zip(axes[:, 0], series):
        shown = [min(v, args.clip_us) for v in values] if args.clip_us else values
        ax.hist(shown, bins=200, color="tab:blue")
        ax.set_yscale("log")
        ax.set_title(f"{title} (n={len(values)})", fontsize=10)
        ax.set_xlabel("µs")
        ax.set_ylabel("trials")
        for q, name in QUANTILES:
            x = nearest_rank(values, q)
            if args.clip_us:
                x = min(x, args.clip_us)
            ax.axvline(x, color="tab:red" if name == "max" else "tab:gray", lw=0.8, ls="--")
            ax.text(x, ax.get_ylim()[1], name, rotation=90, va="top", ha="right", fontsize=7)
    fig.tight_layout()
    out = args.out or os.path.join(args.dir, "latency.png")
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
