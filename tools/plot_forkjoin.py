#!/usr/bin/env python3
"""plot_forkjoin.py — plots `rtpar bench forkjoin` results as PNGs (docs/bench.md).

  rtpar bench forkjoin --json --samples DIR > fj.json
  python3 tools/plot_forkjoin.py --json fj.json --samples DIR --out plots/

With --samples (the raw per-sample CSVs, DIR/<runtime>.<construct>.csv) it draws, per construct,
the latency distribution of every runtime as a percentile plot: x = latency in ns (log), y =
percentile on a "nines" scale (50%, 90%, 99%, 99.9%, ... equally spaced), so tails are as visible
as medians. For the periodic variant it also draws each release's region time over the run, where
an RT-throttling stall shows as a spike. With only --json it draws, per construct, each runtime's
p50 → p99 → p99.9 → max as a dot chain (log x). Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import csv
import glob
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

# CONSTRUCT_ORDER fixes the order of the figures; constructs not listed come after.
CONSTRUCT_ORDER = ["region", "parallel_for", "periodic-region", "periodic-region-response",
                   "spin-pingpong", "futex-pingpong", "timer-wakeup"]
# MAX_NINES caps the y axis of the percentile plot (99.9999%).
MAX_NINES = 6


def read_samples(samples_dir):
    """read_samples maps construct -> {runtime: [ns, ...]} from DIR/<runtime>.<construct>.csv."""
    data = {}
    for path in sorted(glob.glob(os.path.join(samples_dir, "*.csv"))):
        runtime, construct = os.path.basename(path)[: -len(".csv")].split(".", 1)
        with open(path) as f:
            values = [int(r[0]) for r in csv.reader(f) if r and r[0].lstrip("-").isdigit()]
        if values:
            data.setdefault(construct, {})[runtime] = values
    return data


def ordered(constructs):
    """ordered sorts constructs in CONSTRUCT_ORDER, unknown ones last."""
    rank = {c: i for i, c in enumerate(CONSTRUCT_ORDER)}
    return sorted(constructs, key=lambda c: (rank.get(c, len(rank)), c))


def nines(q):
    """nines maps a quantile q in [0, 1) to -log10(1 - q): 0.9 -> 1, 0.99 -> 2, ..."""
    return -math.log10(max(1.0 - q, 10.0 ** -MAX_NINES))


def plot_percentiles(construct, by_runtime, out_dir, title_suffix):
    """plot_percentiles draws latency vs percentile for every runtime of one construct."""
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for runtime in sorted(by_runtime):
        xs = sorted(by_runtime[runtime])
        n = len(xs)
        # Quantile of the i-th smallest sample is i/n; the last one (q = 1) sits at the cap.
        ys = [nines(i / n) for i in range(n)]
        ax.plot([max(x, 1) for x in xs], ys, label=f"{runtime} (n={n})", linewidth=1.2)
    ax.set_xscale("log")
    ticks = list(range(0, MAX_NINES + 1))
    ax.set_yticks([0, math.log10(2)] + ticks[1:])
    ax.set_yticklabels(["0%", "50%"] + [f"{100 - 100 / 10 ** k:g}%" for k in ticks[1:]])
    ax.set_xlabel("time per region, ns (log)")
    ax.set_ylabel("percentile")
    ax.set_title(f"rtpar bench forkjoin — {construct}{title_suffix}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    path = os.path.join(out_dir, f"forkjoin_{construct}.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_timeline(construct, by_runtime, out_dir):
    """plot_timeline draws each release's region time in order (periodic variant)."""
    fig, ax = plt.subplots(figsize=(10, 5))
    for runtime in sorted(by_runtime):
        ax.plot(by_runtime[runtime], ".", markersize=2, label=runtime)
    ax.set_yscale("log")
    ax.set_xlabel("release")
    ax.set_ylabel("region time, ns (log)")
    ax.set_title(f"rtpar bench forkjoin — {construct} over the run (stalls show as spikes)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, markerscale=4)
    path = os.path.join(out_dir, f"forkjoin_{construct}_timeline.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_summary(construct, rows, out_dir, title_suffix):
    """plot_summary draws p50, p99, p99.9 and max of each runtime (from the JSON only)."""
    rows = sorted(rows, key=lambda r: r["runtime"])
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.8))
    marks = [("p50_ns", "o", "p50"), ("p99_ns", "s", "p99"), ("p999_ns", "^", "p99.9"),
             ("max_ns", "x", "max")]
    for y, r in enumerate(rows):
        ax.plot([max(r[k], 1) for k, _, _ in marks], [y] * len(marks), "-", color="0.7")
        for i, (k, m, label) in enumerate(marks):
            ax.plot(max(r[k], 1), y, m, color=f"C{i}", label=label if y == 0 else None)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r["runtime"] for r in rows])
    ax.set_xscale("log")
    ax.set_xlabel("time per region, ns (log)")
    ax.set_title(f"rtpar bench forkjoin — {construct}{title_suffix}")
    ax.grid(True, which="both", axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    path = os.path.join(out_dir, f"forkjoin_{construct}_summary.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="output of rtpar bench forkjoin --json")
    ap.add_argument("--samples", help="directory given to rtpar bench forkjoin --samples")
    ap.add_argument("--out", default=".", help="directory for the PNGs (default: .)")
    args = ap.parse_args()
    if not args.json and not args.samples:
        ap.error("give --json, --samples, or both")
    os.makedirs(args.out, exist_ok=True)
    suffix = ""
    rows_by_construct = {}
    if args.json:
        with open(args.json) as f:
            doc = json.load(f)
        cfg = doc.get("config", {})
        if cfg:
            suffix = f" ({cfg.get('threads')} threads, {cfg.get('sched', '?').upper()})"
        for r in doc["results"]:
            rows_by_construct.setdefault(r["construct"], []).append(r)
    written = []
    if args.samples:
        data = read_samples(args.samples)
        if not data:
            sys.exit(f"no samples CSV in {args.samples}")
        for construct in ordered(data):
            written.append(plot_percentiles(construct, data[construct], args.out, suffix))
            if construct.startswith("periodic"):
                written.append(plot_timeline(construct, data[construct], args.out))
    for construct in ordered(rows_by_construct):
        written.append(plot_summary(construct, rows_by_construct[construct], args.out, suffix))
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
