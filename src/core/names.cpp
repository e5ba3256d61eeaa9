// names.cpp — to_string, parse_channel_kind and parse_overhead_statistic over the name tables of
// names.hpp.
#include "core/names.hpp"

#include "rtpar/error.hpp"

namespace rtpar {

const char* to_string(PlannerKind kind) noexcept { return names::name_of(names::kPlanners, kind); }
const char* to_string(OverrunPolicy policy) noexcept {
  return names::name_of(names::kOverruns, policy);
}
const char* to_string(RuntimeKind kind) noexcept { return names::name_of(names::kRuntimes, kind); }
const char* to_string(FitKind kind) noexcept { return names::name_of(names::kFits, kind); }
const char* to_string(AssignKind kind) noexcept { return names::name_of(names::kAssigns, kind); }
const char* to_string(BudgetMode mode) noexcept { return names::name_of(names::kBudgets, mode); }
const char* to_string(WaitKind kind) noexcept { return names::name_of(names::kWaits, kind); }
const char* to_string(ChannelKind kind) noexcept { return names::name_of(names::kChannels, kind); }
const char* to_string(LockProtocol protocol) noexcept {
  return names::name_of(names::kLockProtocols, protocol);
}
const char* to_string(ManifestClass klass) noexcept {
  return names::name_of(names::kManifestClasses, klass);
}

const char* to_string(OverheadStatistic statistic) {
  return names::name_of(names::kOverheadStatistics, statistic);
}
const char* to_string(TeamModel model) { return names::name_of(names::kTeamModels, model); }

OverheadStatistic parse_overhead_statistic(const std::string& text) {
  if (const auto s = names::value_of(names::kOverheadStatistics, text)) return *s;
  throw InputError(SourceLocation{"<command line>", 0, 0}, "--overhead-statistic",
                   "'" + text + "': expected p50, p99, p99.9, max or sampled");
}

std::optional<ChannelKind> parse_channel_kind(std::string_view name) noexcept {
  return names::value_of(names::kChannels, name);
}

}  // namespace rtpar
