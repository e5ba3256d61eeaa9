"""plot_axes.py — the axis decisions of tools/plot_experiment.py, kept free of matplotlib so that
tests/tools/test_plot_axes.py can check them cheaply (docs/experiments.md "Outputs").

What is decided here, and why:
- column_label: a merged CSV column ("median_p99_ns") becomes a human axis label with its unit
  ("99th percentile (µs), median of trials"), the unit chosen by time_unit from the data.
- time_unit: nanosecond columns are shown in ns, µs or ms, whichever keeps the ticks short.
- robust_range: the y range of one panel. A bench study's band is the min..max over whole driver
  runs, and one host stall on this shared VM (fjos-fig4: a 6 ms maximum beside µs medians) would
  otherwise flatten the panel; values above the range are returned to be drawn clipped with a
  marker, never dropped. An all-zero panel gets 0..1, not matplotlib's -0.04..0.04.
- x_ticks and dodge: a bench sweep has few x values (team sizes 1..2 on this machine): ticks at
  exactly those values, and the series side by side around each x so that equal values stay
  distinguishable.
- series_style: marker, dash, width and drawing order per series, so overlapping lines stay
  apart.
"""
import math

# METRIC_NAMES name a bench driver's metric columns (the part after median_/min_/max_) for axes.
METRIC_NAMES = {
    "mean_ns": "mean",
    "p50_ns": "median (p50)",
    "p99_ns": "99th percentile",
    "p999_ns": "99.9th percentile",
    "max_ns": "maximum",
    "serial_p50_ns": "serial run, median",
    "speedup": "speedup of medians",
    "speedup_mean": "speedup of means",
    "misses": "deadline misses",
    "failed": "failed first reads",
}

# FRACTION_LABELS name the non-bench merged columns (RTWS Fig. 8's layout).
FRACTION_LABELS = {
    "fraction": "schedulable fraction",
    "mean_miss_ratio": "mean deadline miss ratio",
    "mean_rel_response": "mean relative response (R/D)",
    "mean_required_cores": "required cores",
    "required_cores": "required cores",
}

# MARKERS and DASHES are cycled per series (series_style); eight markers, four dashes.
MARKERS = ["o", "s", "^", "v", "D", "P", "X", "*"]
DASHES = ["-", "--", "-.", ":"]


def time_unit(max_ns):
    """time_unit returns (divisor, unit name) showing max_ns (nanoseconds) with short ticks."""
    if max_ns is None or not math.isfinite(max_ns) or abs(max_ns) < 1e4:
        return 1.0, "ns"
    if abs(max_ns) < 1e6:
        return 1e3, "µs"
    return 1e6, "ms"


def value_text(value, divisor=1.0, unit=None):
    """value_text writes a clipped value for its annotation: a time (unit given) in the unit
    that suits it (6.12 ms, not 6.12e+03 µs), else three significant digits."""
    if not unit:
        return f"{value:.3g}"
    ns = value * divisor
    d, u = time_unit(ns)
    return f"{ns / d:.3g} {u}"


def column_label(column, unit=None):
    """column_label returns the axis label of merged column `column`; `unit` (from time_unit)
    replaces the "ns" of a time column. Unknown columns are returned unchanged."""
    if column in FRACTION_LABELS:
        return FRACTION_LABELS[column]
    stat = ""
    metric = column
    for prefix, words in (("median_", "median of trials"), ("min_", "least of trials"),
                          ("max_", "greatest of trials")):
        if column.startswith(prefix):
            stat, metric = words, column[len(prefix):]
            break
    name = METRIC_NAMES.get(metric)
    if name is None:
        return column
    if metric.endswith("_ns"):
        name = f"{name} ({unit or 'ns'})"
    return f"{name}, {stat}" if stat else name


def _quantile(sorted_values, q):
    """_quantile is the linearly interpolated q-quantile of a sorted, non-empty list."""
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (pos - lo) * (sorted_values[hi] - sorted_values[lo])


def robust_range(values, band_highs=(), band_lows=(), margin=0.06):
    """robust_range returns (low, high) for a panel whose points are `values` (the medians) and
    whose bands reach `band_lows`..`band_highs`. The points fix the range, except a point beyond
    Tukey's far-out fence (Q3 + 3 IQR) of the points; a band is included while it stays within
    twice the points' range (a band 1000x its median is a host stall: drawn clipped). A range
    that starts near zero is anchored at 0; an empty or all-equal panel gets a non-empty one."""
    pts = sorted(v for v in values if v is not None and math.isfinite(v))
    if not pts:
        return 0.0, 1.0
    q1, q3 = _quantile(pts, 0.25), _quantile(pts, 0.75)
    fence = q3 + 3 * (q3 - q1)
    kept = [v for v in pts if v <= fence] if len(pts) >= 4 else pts
    low, high = min(kept), max(kept)
    span = high - low if high > low else max(abs(high), 1.0)
    for b in band_highs:
        if b is not None and math.isfinite(b) and b <= high + 2 * span:
            high = max(high, b)
    for b in band_lows:
        if b is not None and math.isfinite(b) and b >= low - 2 * span:
            low = min(low, b)
    if low == high:
        if low == 0:
            return 0.0, 1.0
        return (0.0, 2 * high) if high > 0 else (2 * low, 0.0)
    if low >= 0 and low <= 0.3 * high:
        low = 0.0
    pad = margin * (high - low)
    return (low if low == 0 else low - pad), high + pad


def clipped(values, high):
    """clipped returns the indices of `values` above `high` (drawn at the edge with a marker)."""
    return [i for i, v in enumerate(values)
            if v is not None and math.isfinite(v) and v > high]


def x_ticks(xs, most=12):
    """x_ticks returns the sorted distinct x values to tick (a sweep's own values), or None when
    there are more than `most` (then the default locator is clearer)."""
    distinct = sorted(set(xs))
    return distinct if 0 < len(distinct) <= most else None


def x_limits(xs):
    """x_limits returns (low, high) around the distinct xs: half a step either side, so that one
    team size is one tick in the middle, not a point on a stretched axis (1.9..2.1)."""
    distinct = sorted(set(xs))
    if not distinct:
        return 0.0, 1.0
    step = min((b - a for a, b in zip(distinct, distinct[1:])), default=1.0)
    return distinct[0] - step / 2, distinct[-1] + step / 2


def dodge(xs, index, count, width=0.5):
    """dodge returns xs shifted for series `index` of `count`, the series spread over `width` of
    the smallest x step, so that series of equal value stand side by side."""
    distinct = sorted(set(xs))
    step = min((b - a for a, b in zip(distinct, distinct[1:])), default=1.0)
    if count <= 1:
        return list(xs)
    offset = (index - (count - 1) / 2) * width * step / count
    return [x + offset for x in xs]


def series_style(index, count):
    """series_style returns matplotlib keywords for series `index` of `count`: a colour, a marker
    and a dash of its own (the same in every panel, also where an earlier series has no data), and widths that shrink with the index while later series are drawn on top, so
    that identical curves (W-F = F-F at every point) show as a wide line under a thin dashed one
    rather than one hiding the other."""
    return {
        "color": f"C{index % 10}",  # by the series, not by the lines drawn: a panel without one
        "marker": MARKERS[index % len(MARKERS)],
        "linestyle": DASHES[(index // len(MARKERS) + index) % len(DASHES)],
        "linewidth": max(1.0, 3.0 - 0.5 * index),
        "markersize": max(3.5, 7.0 - 0.75 * index),
        "zorder": 3 + index,
    }


def title_rows(text):
    """title_rows is the number of lines of a suptitle (to leave it room above the panels)."""
    return text.count("\n") + 1
