// bench_merge.cpp — a bench study's merged CSV: per (point, series), each metric's median, minimum
// and maximum over the trials (whole driver runs).
#include <fmt/core.h>

#include <algorithm>

#include "experiment/merge.hpp"
#include "experiment/raw_rows.hpp"

namespace rtpar::experiment {

namespace {

// median is the middle value of sorted v (the mean of the two middle ones for an even count).
double median(const std::vector<double>& v) {
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::string bench_csv(const Resolved& r, const std::vector<RawRow>& rows) {
  const Manifest& m = r.manifest;
  const std::vector<std::string>& metrics = m.bench->metrics;
  // values[point][series][metric]: the measured values; counts of rows and of measured rows.
  const std::size_t ns = m.series.size();
  std::vector<std::vector<std::vector<double>>> values(
      r.points.size() * ns, std::vector<std::vector<double>>(metrics.size()));
  std::vector<std::int64_t> n(r.points.size() * ns, 0);
  std::vector<std::int64_t> measured(r.points.size() * ns, 0);
  for (const RawRow& row : rows) {
    const std::size_t cell = r.unit(row.unit).point * ns + row.series;
    ++n[cell];
    if (row.verdict != Verdict::admitted) continue;
    ++measured[cell];
    for (std::size_t k = 0; k < metrics.size() && k < row.metrics.size(); ++k) {
      if (row.metrics[k]) values[cell][k].push_back(*row.metrics[k]);
    }
  }
  std::string csv = "experiment,panel,x,series,n,measured";
  for (const std::string& metric : metrics) {
    csv += fmt::format(",median_{0},min_{0},max_{0}", metric);
  }
  csv += "\n";
  for (std::size_t p = 0; p < r.points.size(); ++p) {
    for (std::size_t s = 0; s < ns; ++s) {
      const std::size_t cell = p * ns + s;
      csv += fmt::format("{},{},{},{},{},{}", m.name, r.panel_of(p).name, r.points[p].x,
                         m.series[s].name, n[cell], measured[cell]);
      for (std::vector<double>& v : values[cell]) {
        // Sorted, so the cells do not depend on the order the raw files list the trials in.
        std::sort(v.begin(), v.end());
        csv += v.empty() ? ",,," : fmt::format(",{},{},{}", median(v), v.front(), v.back());
      }
      csv += "\n";
    }
  }
  return csv;
}

}  // namespace rtpar::experiment
