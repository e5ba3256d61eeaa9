// stats.hpp — summary statistics of a set of per-sample latencies (ns).
//
// The percentile is nearest-rank, the definition rtpar::percentile (report.hpp) uses, re-stated
// here because peer programs must not link librtpar.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace rtpar_bench {

// Summary is what every result row reports about its samples.
struct Summary {
  std::int64_t count = 0;
  double mean_ns = 0.0;
  std::int64_t min_ns = 0;
  // p5..p95: the box plots of P3LS3 Figs. 4b/5b (whiskers at the 5th and 95th percentiles).
  std::int64_t p5_ns = 0;
  std::int64_t p25_ns = 0;
  std::int64_t p50_ns = 0;
  std::int64_t p75_ns = 0;
  std::int64_t p95_ns = 0;
  std::int64_t p99_ns = 0;
  std::int64_t p999_ns = 0;
  std::int64_t max_ns = 0;
};

// nearest_rank_percentile returns the q-quantile (0 < q ≤ 1) of sorted values: the value of rank
// ceil(q·n), 1-based; 0 when empty. The small tolerance keeps q·n that is an integer in exact
// arithmetic (0.99 · 100000) from rounding up a rank in floating point.
inline std::int64_t nearest_rank_percentile(const std::vector<std::int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const std::size_t n = sorted.size();
  if (!(q > 0.0)) return sorted.front();
  if (q >= 1.0) return sorted.back();
  const double x = q * static_cast<double>(n);
  const double nearest = std::round(x);
  const double rank =
      std::abs(x - nearest) <= 1e-9 * std::max(1.0, nearest) ? nearest : std::ceil(x);
  if (rank <= 1.0) return sorted.front();
  return sorted[std::min(static_cast<std::size_t>(rank) - 1, n - 1)];
}

// summarize computes the summary of samples (copied and sorted; the caller keeps raw order for
// the --samples dump).
inline Summary summarize(const std::vector<std::int64_t>& samples) {
  Summary s;
  if (samples.empty()) return s;
  std::vector<std::int64_t> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  long double sum = 0;
  for (std::int64_t v : sorted) sum += static_cast<long double>(v);
  s.count = static_cast<std::int64_t>(sorted.size());
  s.mean_ns = static_cast<double>(sum / static_cast<long double>(sorted.size()));
  s.min_ns = sorted.front();
  s.p5_ns = nearest_rank_percentile(sorted, 0.05);
  s.p25_ns = nearest_rank_percentile(sorted, 0.25);
  s.p50_ns = nearest_rank_percentile(sorted, 0.50);
  s.p75_ns = nearest_rank_percentile(sorted, 0.75);
  s.p95_ns = nearest_rank_percentile(sorted, 0.95);
  s.p99_ns = nearest_rank_percentile(sorted, 0.99);
  s.p999_ns = nearest_rank_percentile(sorted, 0.999);
  s.max_ns = sorted.back();
  return s;
}

}  // namespace rtpar_bench
