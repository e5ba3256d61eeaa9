// overhead_draw.cpp — see overhead_draw.hpp.
#include "sim/overhead_draw.hpp"

#include <algorithm>

#include "core/rng.hpp"

namespace rtpar::sim {

OverheadQuantiles quantiles_of(const std::array<std::int64_t, 4>& by_column) {
  OverheadQuantiles q;
  q.p50 = std::max<std::int64_t>(0, by_column[0]);
  q.p99 = std::max(q.p50, by_column[1]);
  q.p999 = std::max(q.p99, by_column[2]);
  q.max = std::max(q.p999, by_column[3]);
  return q;
}

std::int64_t value_at(const OverheadQuantiles& q, OverheadStatistic statistic) {
  switch (statistic) {
    case OverheadStatistic::p50:
      return q.p50;
    case OverheadStatistic::p99:
      return q.p99;
    case OverheadStatistic::max:
      return q.max;
    case OverheadStatistic::p999:
    case OverheadStatistic::sampled:
      break;
  }
  return q.p999;
}

std::int64_t sample_at(const OverheadQuantiles& q, std::int64_t k) {
  // Knots (u·kDrawScale, value) of the piecewise-linear inverse CDF above the median.
  struct Knot {
    std::int64_t at;
    std::int64_t value;
  };
  const Knot knots[] = {{kDrawScale / 2, q.p50},
                        {kDrawScale / 100 * 99, q.p99},
                        {kDrawScale / 1000 * 999, q.p999},
                        {kDrawScale, q.max}};
  if (k < knots[0].at) return q.p50;
  for (std::size_t i = 0; i + 1 < std::size(knots); ++i) {
    const Knot& a = knots[i];
    const Knot& b = knots[i + 1];
    if (k >= b.at) continue;
    // Exact: values ≤ 1 s (profile_at) times k < 10^9 fit easily in 128 bits.
    const __int128 rise = static_cast<__int128>(b.value) - a.value;
    return a.value + static_cast<std::int64_t>(rise * (k - a.at) / (b.at - a.at));
  }
  return q.max;
}

std::int64_t draw_index(std::uint64_t seed, std::uint64_t task, std::uint64_t job,
                        std::uint64_t instance) {
  const std::uint64_t key = derive_seed(derive_seed(derive_seed(seed, task), job), instance);
  Rng rng(key);
  return static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(kDrawScale)));
}

}  // namespace rtpar::sim
