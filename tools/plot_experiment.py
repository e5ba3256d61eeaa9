#!/usr/bin/env python3
"""plot_experiment.py — draws a merged `rtpar experiment` study as one PNG (docs/experiments.md).

  rtpar experiment run fjos-fig6 --out DIR      # runs, merges and calls this script
  python3 tools/plot_experiment.py DIR          # DIR/NAME.csv + DIR/NAME.plot.json -> DIR/NAME.png

One subplot per panel; one line per series (the admitted fraction against x) with its 95% Wilson
interval as a band; a bench study's metric medians with the trials' min..max as an error bar,
the series side by side around each x, times in ns/µs/ms, values beyond a robust range drawn
clipped at the top edge with their value (tools/plot_axes.py decides the axes; tested by
tests/tools/test_plot_axes.py). Every series has its own marker and dash; one legend, right of
the panels. With [plot] box = true a bench study adds one subplot per panel of box plots
(draw_boxes). Needs matplotlib (Debian:
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

import plot_axes  # noqa: E402  (beside this script: axis decisions, tested alone)


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
        color = plot_axes.series_style(k, len(series_names))["color"]  # as its lines
        ax.bxp(stats, positions=positions, widths=width * 0.85, patch_artist=True,
               boxprops={"facecolor": color, "alpha": 0.5, "edgecolor": color},
               medianprops={"color": "black"}, whiskerprops={"color": color},
               capprops={"color": color},
               flierprops={"marker": ".", "markeredgecolor": color, "markersize": 4},
               manage_ticks=False)
        # No legend entry of its own: the figure legend (place_title_and_legend) names the
        # series by the same colour.
    ax.set_xticks(range(len(order)), order)
    ax.set_xlim(-0.6, len(order) - 0.4)
    ax.set_xlabel(x_label)
    ax.set_ylabel("execution time per repetition (ms)")
    ax.set_title(f"{panel}: p5/p25/p50/p75/p95, fliers min and max" if panel else
                 "p5/p25/p50/p75/p95, fliers min and max", fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)


def draw_fraction_cell(ax, spec, rows, panel, order, categorical):
    """draw_fraction_cell draws the schedulable fraction (or failure rate) of every series of
    `panel` with its 95% Wilson interval as a band, on the fixed range 0..1."""
    count = len(spec["series"])
    for index, series in enumerate(spec["series"]):
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
        line, = ax.plot(xs, ys, label=series, **plot_axes.series_style(index, count))
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.15, linewidth=0)
    ax.set_ylim(-0.02, 1.02)


def draw_column_cell(ax, spec, rows, panel, column, order, categorical):
    """draw_column_cell draws merged column `column` of every series of `panel` and returns the
    axis label. A bench study's median over trials (whole driver runs) gets the trials' min..max
    as an error bar, the series side by side around each x (plot_axes.dodge); the y range comes
    from plot_axes.robust_range, and what lies above it is drawn clipped at the top edge with
    its value written beside it (a host stall must show, but not flatten the panel)."""
    bench = spec.get("bench") and column.startswith("median_")
    metric = column[len("median_"):] if bench else None
    cells = []  # (series index, xs, ys, lows, highs)
    for index, series in enumerate(spec["series"]):
        pts = [r for r in rows if r["panel"] == panel and r["series"] == series
               and r.get(column)]
        if not pts:
            continue
        xs = [order.index(r["x"]) if categorical else number(r["x"]) for r in pts]
        ys = [float(r[column]) for r in pts]
        lows = [float(r["min_" + metric]) for r in pts] if bench else ys
        highs = [float(r["max_" + metric]) for r in pts] if bench else ys
        cells.append((index, xs, ys, lows, highs))
    every = [v for c in cells for v in c[2]]
    divisor, unit = (plot_axes.time_unit(max(every, default=0))
                     if column.endswith("_ns") else (1.0, None))
    low, high = plot_axes.robust_range([v / divisor for v in every],
                                       band_highs=[v / divisor for c in cells for v in c[4]],
                                       band_lows=[v / divisor for c in cells for v in c[3]])
    for index, xs, ys, lows, highs in cells:
        style = plot_axes.series_style(index, len(spec["series"]))
        at = plot_axes.dodge(xs, index, len(spec["series"])) if bench else xs
        ys = [v / divisor for v in ys]
        shown = [min(v, high) for v in ys]
        line, = ax.plot(at, shown, label=spec["series"][index], **style)
        if bench:
            lo = [min(v / divisor, high) for v in lows]
            hi = [min(v / divisor, high) for v in highs]
            ax.vlines(at, lo, hi, color=line.get_color(), alpha=0.5, linewidth=1.5,
                      zorder=style["zorder"])
        tops = [v / divisor for v in highs]
        for i in sorted(set(plot_axes.clipped(ys, high)) | set(plot_axes.clipped(tops, high))):
            # Clipped: a triangle at the top edge and the true value (the median when it is the
            # one clipped, else the greatest trial).
            value = ys[i] if ys[i] > high else tops[i]
            ax.plot([at[i]], [high], marker="^", markersize=7, color=line.get_color(),
                    clip_on=False, zorder=10)
            ax.annotate(plot_axes.value_text(value, divisor, unit), (at[i], high),
                        textcoords="offset points", xytext=(3, -4), fontsize=6,
                        color=line.get_color(), rotation=90, va="top")
    ax.set_ylim(low, high)
    return plot_axes.column_label(column, unit)


def set_sweep_ticks(ax, xs):
    """set_sweep_ticks ticks a numeric x axis at the sweep's own values (team sizes,
    utilizations), half a step of margin either side: one team size is one centred tick."""
    xs = [x for x in xs if x is not None]
    ticks = plot_axes.x_ticks(xs)
    if ticks:
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.set_xlim(*plot_axes.x_limits(xs))


def place_title_and_legend(fig, axes, title):
    """place_title_and_legend writes the suptitle with room of its own above the panel titles and
    one legend for the figure to the right of every panel (the series are the same in each),
    outside the data."""
    handles, labels = [], []
    for ax in axes.flat:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    # The title is figure text, not a suptitle: tight_layout then keeps the panels below the
    # room reserved for it here (its lines at 11 pt), whatever the figure's height.
    width, height = fig.get_size_inches()
    fig.text(0.5, 1 - 0.1 / height, title, ha="center", va="top", fontsize=11)
    top = 1 - (0.2 * plot_axes.title_rows(title) + 0.2) / height
    right = 1 - 1.9 / width if handles else 1
    fig.tight_layout(rect=(0, 0, right, top))
    if handles:
        fig.legend(handles, labels, loc="center left", bbox_to_anchor=(right, 0.5), fontsize=8,
                   frameon=False)


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
        if column:
            ylabel = draw_column_cell(ax, spec, rows, panel, column, order, categorical)
        else:
            draw_fraction_cell(ax, spec, rows, panel, order, categorical)
            ylabel = spec["y_label"] if len(ys_spec) == 1 else plot_axes.column_label(y)
        if categorical:
            ax.set_xticks(range(len(order)), order)
        elif len(order) <= 12 and all(number(x) == int(number(x)) for x in order):
            # Few integer x values (worker threads): tick exactly those, not 1.2, 1.4, ...
            ax.set_xticks(sorted({number(x) for x in order}))
        elif spec.get("log_x"):
            ax.set_xscale("log")
        else:
            set_sweep_ticks(ax, [number(x) for x in order])
        ax.set_xlabel(spec["x_label"])
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        if len(panels) > 1:
            ax.set_title(panel, fontsize=10)
    for j in range(len(cells), nrows * cols):
        axes[j // cols][j % cols].set_visible(False)
    source = f"{spec.get('paper', '')} {spec.get('item', '')}".strip()
    title = (f"{spec['title']}\nscale {spec['scale']}, {spec['trials']} trials per point"
             + (f"\n({source})" if source and source != "none" else ""))
    place_title_and_legend(fig, axes, title)
    png = os.path.join(out_dir, name + ".png")
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
