#!/usr/bin/env python3
"""plot_steal.py — plots `rtpar bench steal --json` results as PNGs (docs/bench_steal.md).

  rtpar bench steal --json > steal.json
  /usr/bin/python3 tools/plot_steal.py --json steal.json --out plots/

Writes, per variant (isolated, multiprogrammed), steal_<variant>.png: one panel per benchmark, one
group per thread count, one mark per runtime: a dot at the p50 time per repetition (log y), a thick
bar up to p99 and a thin line up to max — the time distributions of P3LS3 Fig. 4b/5b in summary form.
Also steal_speedup.png: serial p50 / parallel p50 per benchmark, runtime and thread count.
Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

BENCH_ORDER = ["fib", "uts", "matmul", "heat"]
RUNTIME_ORDER = ["rtpar", "libgomp", "libomp", "tbb"]
VARIANT_ORDER = ["isolated", "multiprogrammed"]


def ordered(values, order):
    """ordered sorts values by their position in order (unknown values last, alphabetically)."""
    return sorted(values, key=lambda v: (order.index(v) if v in order else len(order), v))


def plot_variant(rows, variant, out):
    """plot_variant draws the p50/p99/max panel figure of one variant."""
    rows = [r for r in rows if r["variant"] == variant]
    benches = ordered({r["benchmark"] for r in rows}, BENCH_ORDER)
    runtimes = ordered({r["runtime"] for r in rows}, RUNTIME_ORDER)
    if not benches:
        return None
    fig, axes = plt.subplots(1, len(benches), figsize=(4.2 * len(benches), 4.2), squeeze=False)
    width = 0.8 / max(len(runtimes), 1)
    for ax, bench in zip(axes[0], benches):
        threads = sorted({r["threads"] for r in rows if r["benchmark"] == bench})
        for k, rt in enumerate(runtimes):
            for x, t in enumerate(threads):
                match = [r for r in rows if (r["benchmark"], r["runtime"], r["threads"]) == (bench, rt, t)]
                if not match:
                    continue
                r = match[0]
                pos = x + (k - (len(runtimes) - 1) / 2) * width
                p50, p99, mx = r["p50_ns"] / 1e6, r["p99_ns"] / 1e6, r["max_ns"] / 1e6
                ax.plot([pos, pos], [p50, mx], color=f"C{k}", linewidth=1)
                ax.plot([pos, pos], [p50, p99], color=f"C{k}", linewidth=4, solid_capstyle="butt")
                ax.plot([pos], [p50], marker="o", color=f"C{k}", label=rt if x == 0 else None)
                ax.plot([pos], [mx], marker="_", markersize=10, color=f"C{k}")
        ax.set_xticks(range(len(threads)))
        ax.set_xticklabels([f"{t} thr" for t in threads])
        ax.set_xlim(-0.6, len(threads) - 0.4)
        ax.set_yscale("log")
        size = next((r["size"] for r in rows if r["benchmark"] == bench), "")
        ax.set_title(f"{bench} ({size})", fontsize=9)
        ax.set_ylabel("ms per repetition (dot p50, bar to p99, line to max)")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(f"rtpar bench steal — {variant}")
    fig.tight_layout()
    path = os.path.join(out, f"steal_{variant}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_speedup(rows, out):
    """plot_speedup draws serial p50 / parallel p50 for every row."""
    keys = [(v, b) for v in ordered({r["variant"] for r in rows}, VARIANT_ORDER)
            for b in ordered({r["benchmark"] for r in rows}, BENCH_ORDER)]
    runtimes = ordered({r["runtime"] for r in rows}, RUNTIME_ORDER)
    threads = sorted({r["threads"] for r in rows})
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(keys)), 4.2))
    series = [(rt, t) for rt in runtimes for t in threads]
    width = 0.8 / max(len(series), 1)
    for k, (rt, t) in enumerate(series):
        xs, ys = [], []
        for x, (v, b) in enumerate(keys):
            match = [r for r in rows if (r["variant"], r["benchmark"], r["runtime"], r["threads"]) == (v, b, rt, t)]
            if match:
                xs.append(x + (k - (len(series) - 1) / 2) * width)
                ys.append(match[0]["speedup"])
        ax.bar(xs, ys, width, color=f"C{runtimes.index(rt)}", alpha=0.5 + 0.5 * (t == threads[-1]),
               label=f"{rt} {t} thr")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([f"{b}\n{v[:5]}" for v, b in keys], fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("speedup (serial p50 / parallel p50)")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    path = os.path.join(out, "steal_speedup.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", required=True, help="output of rtpar bench steal --json")
    ap.add_argument("--out", required=True, help="directory for the PNGs")
    args = ap.parse_args()
    with open(args.json) as f:
        rows = json.load(f)["results"]
    os.makedirs(args.out, exist_ok=True)
    written = [plot_variant(rows, v, args.out) for v in ordered({r["variant"] for r in rows}, VARIANT_ORDER)]
    written.append(plot_speedup(rows, args.out))
    for p in written:
        if p:
            print(p)


if __name__ == "__main__":
    main()
