// charged_profile.cpp — see charged_profile.hpp.
#include "sim/charged_profile.hpp"

#include "rtpar/tools/simulate.hpp"
#include "sim/overhead_draw.hpp"

namespace rtpar::sim {

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

}  // namespace rtpar::sim
