#!/usr/bin/env python3
"""plot_experiment.py — draws a merged `rtpar experiment` study as one PNG (docs/experiments.md).

  rtpar experiment run fjos-fig6 --out DIR      # runs, merges and calls this script
  python3 tools/plot_experiment.py DIR          # DIR/NAME.csv + DIR/NAME.plot.json -> DIR/NAME.png

One subplot per panel; one line per series (the admitted fraction against x) with its 95% Wilson
interval as a band; a bench study's metric medians with the trials' min..max as the band. Series that are bound tests are drawn dashed. Needs matplotlib (Debian:
python3-matplotlib); exit status 2 when the inputs are missing.
"""
import csv
import glob
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402


# Y_LABELS name the merged columns when several are plotted side by side.
Y_LABELS = {
    "fraction": "schedulable fraction",
    "mean_miss_ratio": "mean deadline miss ratio",
    "mean_rel_response": "mean relative response (R/D)",
    "required_cores": "required cores",
}


def number(text):
    """number parses an x value; None for names (then x is categorical)."""
    try:
        return float(text)
    except ValueError:
        return None


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    specs = glob.glob(os.path.join(out_dir, "*.plot.json"))
    if len(specs) != 1:
        print(f"plot_experiment.py: expected one *.plot.json in {out_dir} (run merge first)",
              file=sys.stderr)
        return 2
    with open(specs[0]) as f:
        spec = json.load(f)
    name = os.path.basename(specs[0])[: -len(".plot.json")]
    with open(os.path.join(out_dir, name + ".csv")) as f:
        rows = list(csv.DictReader(f))
    panels = spec["panels"]
    ys_spec = spec.get("y", ["fraction"])
    if isinstance(ys_spec, str):
        ys_spec = [ys_spec]
    # One subplot per (panel, y): panels in two columns for one y, else a row per panel and a
    # column per y (RTWS Fig. 8's layout).
    cells = [(panel, y) for panel in panels for y in ys_spec]
    cols = min(len(panels), 2) if len(ys_spec) == 1 else len(ys_spec)
    nrows = math.ceil(len(cells) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(6.4 * cols, 4.2 * nrows), squeeze=False)
    for i, (panel, y) in enumerate(cells):
        ax = axes[i // cols][i % cols]
        column = None if y == "fraction" else (
            "mean_required_cores" if y == "required_cores" else y)
        xs_all = [r["x"] for r in rows if r["panel"] == panel]
        categorical = any(number(x) is None for x in xs_all)
        order = list(dict.fromkeys(xs_all))
        for series in spec["series"]:
            if column:
                # A merged column (RTWS Fig. 8: miss ratio, relative response, required cores),
                # no interval.
                pts = [r for r in rows if r["panel"] == panel and r["series"] == series
                       and r.get(column)]
                xs = [order.index(r["x"]) if categorical else number(r["x"]) for r in pts]
                line, = ax.plot(xs, [float(r[column]) for r in pts], marker="o", markersize=3,
                                label=series)
                if spec.get("bench") and column.startswith("median_"):
                    # A bench study's median over trials (whole driver runs), with the range of
                    # the trials as the band.
                    metric = column[len("median_"):]
                    ax.fill_between(xs, [float(r["min_" + metric]) for r in pts],
                                    [float(r["max_" + metric]) for r in pts],
                                    color=line.get_color(), alpha=0.15, linewidth=0)
                continue
            pts = [r for r in rows if r["panel"] == panel and r["series"] == series and r["value"]]
            if not pts:
                continue
            xs = [order.index(r["x"]) if categorical else number(r["x"]) for r in pts]
            ys = [float(r["value"]) for r in pts]
            lo = [float(r["ci_low"]) for r in pts]
            hi = [float(r["ci_high"]) for r in pts]
            if spec.get("failure_rate"):
                # The failure rate is 1 - value; its interval is the mirror of value's.
                ys, lo, hi = [1 - y for y in ys], [1 - h for h in hi], [1 - lo_ for lo_ in lo]
            line, = ax.plot(xs, ys, marker="o", markersize=3, label=series)
            ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.15, linewidth=0)
        if categorical:
            ax.set_xticks(range(len(order)), order)
        elif spec.get("log_x"):
            ax.set_xscale("log")
        if not column:
            ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel(spec["x_label"])
        ax.set_ylabel(spec["y_label"] if len(ys_spec) == 1 else Y_LABELS.get(y, y))
        ax.grid(True, alpha=0.3)
        if len(panels) > 1:
            ax.set_title(panel, fontsize=10)
        ax.legend(fontsize=8)
    for j in range(len(cells), nrows * cols):
        axes[j // cols][j % cols].set_visible(False)
    source = f"{spec.get('paper', '')} {spec.get('item', '')}".strip()
    fig.suptitle(f"{spec['title']}\nscale {spec['scale']}, {spec['trials']} trials per point"
                 + (f"\n({source})" if source and source != "none" else ""), fontsize=11)
    fig.tight_layout()
    png = os.path.join(out_dir, name + ".png")
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
