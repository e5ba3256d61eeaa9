// overhead_draw.cpp — see overhead_draw.hpp.
#include "sim/overhead_draw.hpp"

#include <algorithm>
#include <string>

#include "core/rng.hpp"
#include "rtpar/error.hpp"

namespace rtpar {

const char* to_string(OverheadStatistic statistic) {
  switch (statistic) {
    case OverheadStatistic::p50:
      return "p50";
    case OverheadStatistic::p99:
      return "p99";
    case OverheadStatistic::p999:
      return "p99.9";
    case OverheadStatistic::max:
      return "max";
    case OverheadStatistic::sampled:
      break;
  }
  return "sampled";
}

OverheadStatistic parse_overhead_statistic(const std::string& text) {
  for (const OverheadStatistic s :
       {OverheadStatistic::p50, OverheadStatistic::p99, OverheadStatistic::p999,
        OverheadStatistic::max, OverheadStatistic::sampled}) {
    if (text == to_string(s)) return s;
  }
  throw InputError(SourceLocation{"<command line>", 0, 0}, "--overhead-statistic",
                   "'" + text + "': expected p50, p99, p99.9, max or sampled");
}

}  // namespace rtpar

namespace rtpar::sim {

namespace {

// at_column is one entry's value at `column`, a missing (0) p50 or p99 read as the next higher.
std::int64_t at_column(const ForkJoinCost& c, OverheadStatistic column) {
  switch (column) {
    case OverheadStatistic::p50:
      return c.p50_ns != 0 ? c.p50_ns : (c.p99_ns != 0 ? c.p99_ns : c.p999_ns);
    case OverheadStatistic::p99:
      return c.p99_ns != 0 ? c.p99_ns : c.p999_ns;
    case OverheadStatistic::max:
      return std::max(c.max_ns, c.p999_ns);
    case OverheadStatistic::p999:
    case OverheadStatistic::sampled:
      break;
  }
  return c.p999_ns;
}

// rewrite replaces each entry's p999_ns by its value at `column`; `array` names it in errors.
void rewrite(std::vector<ForkJoinCost>& entries, OverheadStatistic column, const std::string& file,
             const char* array) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::int64_t v = at_column(entries[i], column);
    if (v > kMaxForkJoinCostNs) {
      // The planners' rule keeps charges far from int64 limits only below this bound.
      throw InputError(SourceLocation{file.empty() ? "overhead profile" : file, 0, 0},
                       std::string(array) + "[" + std::to_string(i) + "].max_ns",
                       "is above 1 s: cannot inject it (--overhead-statistic max or sampled)");
    }
    entries[i].p999_ns = v;
  }
}

}  // namespace

OverheadProfile profile_at(const OverheadProfile& profile, OverheadStatistic column) {
  OverheadProfile out = profile;
  rewrite(out.fork_join, column, profile.source, "fork_join");
  rewrite(out.release, column, profile.source, "release");
  rewrite(out.barrier, column, profile.source, "barrier");
  return out;
}

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
