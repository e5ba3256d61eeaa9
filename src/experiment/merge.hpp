// merge.hpp — `rtpar experiment merge`: every raw row of a study into one aggregated CSV (one row
// per panel, x and series), its expectations checked, and the plot's description.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "experiment/units.hpp"

namespace rtpar::experiment {

// Wilson is a binomial proportion with its Wilson score interval (95%: z = 1.959964; Wilson,
// JASA 1927): unlike the normal approximation it stays inside [0, 1] and is sound at 0 and n.
struct Wilson {
  double value = 0;
  double low = 0;
  double high = 0;
};

// wilson95 is the fraction k/n with its 95% Wilson interval (n > 0).
Wilson wilson95(std::int64_t k, std::int64_t n);

// Cell is one aggregated (point, series).
struct Cell {
  std::size_t point = 0;
  std::size_t series = 0;
  std::int64_t admitted = 0;
  std::int64_t rejected = 0;
  std::int64_t not_applicable = 0;
  // Simulation manifests only: sets that ran and missed, sets the planner admitted, sets
  // simulated, the sum of their miss ratios and the largest relative response.
  std::int64_t missed = 0;
  std::int64_t plan_admitted = 0;
  std::int64_t simulated = 0;
  std::int64_t miss_ratio_micros = 0;  // Σ miss ratios in millionths: exact in any row order
  std::optional<double> max_rel_response;
  // Σ of the simulated sets' mean relative responses in millionths (exact in any row order), and
  // how many sets had one.
  std::int64_t mean_rel_micros = 0;
  std::int64_t mean_rel_n = 0;
  // Required-cores searches (raw_rows.hpp, searches_cores): sets searched, Σ their answers (more
  // than M counted as M + 4) and how many needed more than M.
  std::int64_t required_n = 0;
  std::int64_t required_sum = 0;
  std::int64_t required_over = 0;
  double mean_tasks = 0;
  double mean_total_util = 0;
};

// Coverage says which units a study's raw files hold.
struct Coverage {
  std::uint64_t present = 0;
  std::vector<std::uint64_t> missing;     // unit indices absent from every raw file
  std::vector<std::uint64_t> duplicated;  // unit indices present in two files
};

// MergeResult is what merge wrote and found.
struct MergeResult {
  std::filesystem::path csv;         // DIR/NAME.csv
  std::vector<std::string> expects;  // one line per expectation, PASS or FAIL first
  int failed = 0;                    // failed expectations
  Coverage coverage;
};

// coverage reads every raw file of DIR and reports present, missing and duplicated units.
Coverage coverage(const Resolved& r, const std::filesystem::path& dir);

// merge_study aggregates DIR's raw rows into DIR/NAME.csv, DIR/expect.txt and DIR/NAME.plot.json.
// A missing or duplicated unit is an InputError listing them (unless allow_partial, which
// aggregates what is there and says so in expect.txt). The CSV holds no timing column: any split
// of the study merges to the same bytes.
// A runtime study's raw files must each have their machine record (raw/NAME.env), all equal
// unless mix_machines; the common record is copied to DIR/machine.txt.
MergeResult merge_study(const std::filesystem::path& dir, bool allow_partial,
                        bool mix_machines = false);

// bench_csv is a bench study's merged CSV (docs/experiments.md "Bench manifests"): one row per
// (panel, x, series) with n (trials), measured (trials whose run had the series' record) and, for
// each metric M, median_M, min_M and max_M over the measured trials (empty when none).
struct RawRow;
std::string bench_csv(const Resolved& r, const std::vector<RawRow>& rows);

// breakdown is the x at which a curve first falls below level, interpolated linearly between the
// sweep points around the crossing (FJOS Fig. 6, decision F12: the "effective utilization").
// When the curve never falls below level it is the last x; when it starts below, the first.
double breakdown(const std::vector<double>& x, const std::vector<double>& value, double level);

}  // namespace rtpar::experiment
