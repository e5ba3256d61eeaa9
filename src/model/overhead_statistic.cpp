// overhead_statistic.cpp — see overhead_statistic.hpp.
#include "model/overhead_statistic.hpp"

#include <algorithm>
#include <vector>

namespace rtpar::model {

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

OverheadProfile charged_at(const OverheadProfile& profile, const std::string& statistic,
                           const SourceLocation& where, const std::string& field) {
  OverheadStatistic column = OverheadStatistic::p999;
  try {
    column = parse_overhead_statistic(statistic);
  } catch (const InputError&) {
    throw InputError(where, field, "'" + statistic + "': expected p50, p99, p99.9 or max");
  }
  if (column == OverheadStatistic::sampled) {
    throw InputError(where, field, "'sampled': a planner charges one value (p50, p99, p99.9, max)");
  }
  if (column == OverheadStatistic::p999) return profile;
  try {
    return profile_at(profile, column);
  } catch (const InputError& e) {
    throw InputError(e.where(), e.field(), "is above 1 s: a planner cannot charge it at max");
  }
}

}  // namespace rtpar::model
