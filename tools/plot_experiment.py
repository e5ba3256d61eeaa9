#!/usr/bin/env python3
"""plot_experiment.py — draws a merged `rtpar experiment` study as one PNG (docs/experiments.md).

  rtpar experiment run fjos-fig6 --out DIR      # runs, merges and calls this script
  python3 tools/plot_experiment.py DIR          # DIR/NAME.csv + DIR/NAME.plot.json -> DIR/NAME.png

One subplot per panel; one line per series (the admitted fraction against x) with its 95% Wilson
interval as a band; a bench study's metric medians with the trials' min..max as the band. Series that are bound tests are drawn dashed. With [plot] box = true a bench study adds
one subplot per panel of box plots (draw_boxes). Needs matplotlib (Debian:
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
    "median_speedup": "speedup over the serial run",
    "median_p50_ns": "median time per repetition (ns)",
}


def number(text):
    """number parses an x value; None for names (then x is categorical)."""
    try:
        return float(text)
    except ValueError:
        return None


def draw_boxes(ax, rows, panel, series_names, x_label):
    """draw_boxes draws one box per (x, series) of a bench study's panel, as P3LS3 Figs. 4b/5b
    ("the box plots indicate the 95th and 5th percentile execution times with whiskers and all
    fliers are included", P3LS3 §5): box p25..p75, line p50, whiskers p5/p95, fliers min and
    max. Each value is the median over trials (whole driver runs) of that repetition-time
    percentile, in ms. The x axis is the sweep's x (worker threads), series side by side."""
    order = list(dict.fromkeys(r["x"] for r in rows if r["panel"] == panel))
    width = 0.8 / max(1, len(series_names))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, series in enumerate(series_names):
        stats, positions = [], []
        for i, x in enumerate(order):
            r = next((r for r in rows if r["panel"] == panel and r["series"] == series
                      and r["x"] == x and r.get("median_p50_ns")), None)
            if r is None:
                continue
            ms = {key: float(r["median_" + key]) / 1e6 for key in
                  ("min_ns", "p5_ns", "p25_ns", "p50_ns", "p75_ns", "p95_ns", "max_ns")}
            stats.append({"label": series, "med": ms["p50_ns"], "q1": ms["p25_ns"],
                          "q3": ms["p75_ns"], "whislo": ms["p5_ns"], "whishi": ms["p95_ns"],
                          "fliers": [ms["min_ns"], ms["max_ns"]]})
            positions.append(i + (k - (len(series_names) - 1) / 2) * width)
        if not stats:
            continue
        color = colors[k % len(colors)]
        ax.bxp(stats, positions=positions, widths=width * 0.85, patch_artist=True,
               boxprops={"facecolor": color, "alpha": 0.5, "edgecolor": color},
               medianprops={"color": "black"}, whiskerprops={"color": color},
               capprops={"color": color},
               flierprops={"marker": ".", "markeredgecolor": color, "markersize": 4},
               manage_ticks=False)
        ax.plot([], [], color=color, linewidth=6, alpha=0.5, label=series)  # legend entry
    ax.set_xticks(range(len(order)), order)
    ax.set_xlim(-0.6, len(order) - 0.4)
    ax.set_xlabel(x_label)
    ax.set_ylabel("execution time per repetition (ms)")
    ax.set_title(f"{panel}: p5/p25/p50/p75/p95, fliers min and max" if panel else
                 "p5/p25/p50/p75/p95, fliers min and max", fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)


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
    boxes = bool(spec.get("box")) and bool(spec.get("bench"))
    cells = [(panel, y) for panel in panels for y in ys_spec]
    if boxes:
        # One more column per panel row: the distribution beside the medians.
        cells = [c for panel in panels for c in
                 [(panel, y) for y in ys_spec] + [(panel, "__box__")]]
        ys_spec_cols = len(ys_spec) + 1
    cols = min(len(panels), 2) if len(ys_spec) == 1 else len(ys_spec)
    if boxes:
        cols = ys_spec_cols
    nrows = math.ceil(len(cells) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(6.4 * cols, 4.2 * nrows), squeeze=False)
    for i, (panel, y) in enumerate(cells):
        ax = axes[i // cols][i % cols]
        if y == "__box__":
            draw_boxes(ax, rows, panel, spec["series"], spec["x_label"])
            continue
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
        elif len(order) <= 12 and all(number(x) == int(number(x)) for x in order):
            # Few integer x values (worker threads): tick exactly those, not 1.2, 1.4, ...
            ax.set_xticks(sorted({number(x) for x in order}))
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
