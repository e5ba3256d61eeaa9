#!/usr/bin/env python3
"""test_plot_axes.py — unit tests of tools/plot_axes.py, the axis decisions of
tools/plot_experiment.py (no matplotlib needed; well under a second)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import plot_axes  # noqa: E402


class ColumnLabel(unittest.TestCase):
    """ColumnLabel: merged CSV columns become human labels with units."""

    def test_time_column_gets_unit_and_statistic(self):
        self.assertEqual(plot_axes.column_label("median_p99_ns", "µs"),
                         "99th percentile (µs), median of trials")

    def test_unitless_and_fraction_columns(self):
        self.assertEqual(plot_axes.column_label("median_speedup"),
                         "speedup of medians, median of trials")
        self.assertEqual(plot_axes.column_label("mean_rel_response"),
                         "mean relative response (R/D)")

    def test_unknown_column_is_left_alone(self):
        self.assertEqual(plot_axes.column_label("median_frobs"), "median_frobs")


class TimeUnit(unittest.TestCase):
    """TimeUnit: ns, µs or ms by magnitude."""

    def test_units(self):
        self.assertEqual(plot_axes.time_unit(900), (1.0, "ns"))
        self.assertEqual(plot_axes.time_unit(15000), (1e3, "µs"))
        self.assertEqual(plot_axes.time_unit(9.1e5), (1e3, "µs"))
        self.assertEqual(plot_axes.time_unit(9.1e6), (1e6, "ms"))
        self.assertEqual(plot_axes.time_unit(1.4e7), (1e6, "ms"))


class ValueText(unittest.TestCase):
    """ValueText: a clipped time is written in the unit that suits it."""

    def test_value_text(self):
        self.assertEqual(plot_axes.value_text(6117.85, 1e3, "µs"), "6.12 ms")
        self.assertEqual(plot_axes.value_text(0.5), "0.5")


class RobustRange(unittest.TestCase):
    """RobustRange: outliers are clipped, not allowed to flatten a panel."""

    def test_band_outlier_does_not_flatten(self):
        # fjos-fig4 periodic maxima: medians 2-121 us, one trial's 6.1 ms stall in a band.
        medians = [86e3, 2.1e3, 24.6e3, 3.8e3, 41.6e3, 8.8e3, 54.6e3, 29.6e3]
        low, high = plot_axes.robust_range(medians, band_highs=[6117850, 122e3])
        self.assertEqual(low, 0.0)
        self.assertGreaterEqual(high, 122e3)  # a band near the points is kept
        self.assertLess(high, 300e3)
        self.assertEqual(plot_axes.clipped([6117850, 122e3], high), [0])

    def test_point_beyond_far_fence_is_clipped(self):
        low, high = plot_axes.robust_range([1.0, 1.1, 0.9, 1.2, 1.0, 50.0])
        self.assertLess(high, 5)
        self.assertEqual(plot_axes.clipped([1.0, 50.0], high), [1])

    def test_all_zero_and_empty_panels(self):
        self.assertEqual(plot_axes.robust_range([0, 0, 0]), (0.0, 1.0))
        self.assertEqual(plot_axes.robust_range([]), (0.0, 1.0))
        self.assertEqual(plot_axes.robust_range([None]), (0.0, 1.0))

    def test_far_from_zero_keeps_detail(self):
        low, high = plot_axes.robust_range([1.71, 1.81, 1.84, 1.46])
        self.assertGreater(low, 1.0)
        self.assertGreater(high, 1.84)

    def test_single_value(self):
        self.assertEqual(plot_axes.robust_range([5.0]), (0.0, 10.0))


class XAxis(unittest.TestCase):
    """XAxis: ticks at the sweep's own values; one value is centred, series side by side."""

    def test_single_team_size(self):
        self.assertEqual(plot_axes.x_ticks([2, 2, 2]), [2])
        self.assertEqual(plot_axes.x_limits([2, 2]), (1.5, 2.5))

    def test_ticks_and_limits(self):
        self.assertEqual(plot_axes.x_ticks([0.2, 0.6, 1, 1.4, 1.8]), [0.2, 0.6, 1, 1.4, 1.8])
        self.assertIsNone(plot_axes.x_ticks(list(range(20))))
        low, high = plot_axes.x_limits([1, 2])
        self.assertAlmostEqual(low, 0.5)
        self.assertAlmostEqual(high, 2.5)

    def test_dodge_spreads_series_symmetrically(self):
        first = plot_axes.dodge([1, 2], 0, 4)
        last = plot_axes.dodge([1, 2], 3, 4)
        self.assertAlmostEqual(first[0] - 1, -(last[0] - 1))
        self.assertLess(last[0] - first[0], 0.5)  # stays within the step
        self.assertEqual(plot_axes.dodge([1, 2], 0, 1), [1, 2])


class SeriesStyle(unittest.TestCase):
    """SeriesStyle: every series of a panel distinguishable; later ones thinner and on top."""

    def test_distinct_styles(self):
        styles = [plot_axes.series_style(i, 8) for i in range(8)]
        self.assertEqual(len({(s["marker"], s["linestyle"]) for s in styles}), 8)
        self.assertEqual(len({s["color"] for s in styles}), 8)
        self.assertLess(styles[0]["zorder"], styles[7]["zorder"])
        self.assertGreater(styles[0]["linewidth"], styles[1]["linewidth"])


if __name__ == "__main__":
    unittest.main()
