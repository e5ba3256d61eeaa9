#!/usr/bin/env python3
"""plot_channels.py — OpenMP-RT Fig. 3 and Fig. 4 drawn from `rtpar bench channels --json`.

Usage: tools/plot_channels.py RESULT.json [--out-dir DIR] [--prefix NAME]

Writes DIR/NAME_fig3.png (consumer response time vs total utilization: one panel per
configuration RT->RT, RT->nRT, nRT->RT, one line per channel kind, mean solid and p99 dashed)
and DIR/NAME_fig4.png (retry: % failed first reads and % failed reads vs P_p/P_c, plus the torn
read counts of every kind as text), for whichever figures the JSON holds. Refused cells (lock
across the RT/nRT boundary) have no numbers and are left out of the lines; the panel says so.
Needs matplotlib (use /usr/bin/python3).
"""
import argparse
import json
import os
import sys

CONFIGS = ["RT->RT", "RT->nRT", "nRT->RT"]
KINDS = ["retry", "double_buffer", "latest", "lock"]


def plot_fig3(plt, rows, path, title_note):
    """plot_fig3 draws mean and p99 consumer response (ms) per kind, one panel per config."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5), sharey=True)
    for ax, config in zip(axes, CONFIGS):
        refused = []
        for kind in KINDS:
            cells = sorted((r for r in rows if r["kind"] == kind and r["config"] == config),
                           key=lambda r: r["utilization"])
            if not cells:
                continue
            if any(r.get("refused") for r in cells):
                refused.append(kind)
                continue
            u = [r["utilization"] for r in cells]
            line, = ax.plot(u, [r["mean_ns"] / 1e6 for r in cells], marker="o", label=kind)
            ax.plot(u, [r["p99_ns"] / 1e6 for r in cells], linestyle="--", color=line.get_color(),
                    alpha=0.6)
        ax.set_title(config)
        ax.set_xlabel("total utilization (2 cores)")
        ax.grid(True, alpha=0.3)
        if refused:
            ax.text(0.02, 0.97, "refused: " + ", ".join(refused), transform=ax.transAxes,
                    va="top", fontsize=9, color="gray")
        ax.legend(loc="lower right", fontsize=8)
    axes[0].set_ylabel("consumer response time [ms] (solid mean, dashed p99)")
    fig.suptitle("Consumer response time vs total utilization" + title_note)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_fig4(plt, rows, path, title_note):
    """plot_fig4 draws the retry kind's failure percentages against the requested ratio, one
    pair of lines per placement (RT->RT, RT->nRT, nRT->RT; older files have no config: RT->RT)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    configs = sorted({r.get("config", "RT->RT") for r in rows if r["kind"] == "retry"})
    for i, config in enumerate(configs):
        retry = sorted((r for r in rows
                        if r["kind"] == "retry" and r.get("config", "RT->RT") == config),
                       key=lambda r: r["ratio"])
        x = [r["ratio"] for r in retry]
        color = f"C{i}"
        ax.plot(x, [r["first_failed_pct"] for r in retry], marker="o", color=color,
                label=f"{config}: failed first reads")
        ax.plot(x, [r["failed_pct"] for r in retry], marker="s", linestyle="--", color=color,
                label=f"{config}: failed reads (after numtries = 2)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("P_p / P_c")
    ax.set_ylabel("reads [%]")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right", fontsize=9)
    torn = {}
    for r in rows:
        torn[r["kind"]] = torn.get(r["kind"], 0) + r["torn"]
    ax.text(0.02, 0.97, "torn reads: " + ", ".join(f"{k} {v}" for k, v in torn.items()),
            transform=ax.transAxes, va="top", fontsize=9, color="gray")
    ax.set_title("Retry channel, 1 MiB payload" + title_note)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json_file")
    parser.add_argument("--out-dir", default=".")
    parser.add_argument("--prefix", default="channels")
    args = parser.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_channels.py: matplotlib is missing (try /usr/bin/python3)")
    with open(args.json_file) as f:
        doc = json.load(f)
    note = " (BEST EFFORT)" if doc.get("best_effort") else ""
    os.makedirs(args.out_dir, exist_ok=True)
    written = []
    if doc.get("fig3"):
        path = os.path.join(args.out_dir, args.prefix + "_fig3.png")
        placement = doc.get("fig3_placement", "pair")
        plot_fig3(plt, doc["fig3"], path, f"{note}, placement {placement}")
        written.append(path)
    if doc.get("fig4"):
        path = os.path.join(args.out_dir, args.prefix + "_fig4.png")
        plot_fig4(plt, doc["fig4"], path, note)
        written.append(path)
    for p in written:
        print(p)


if __name__ == "__main__":
    main()
