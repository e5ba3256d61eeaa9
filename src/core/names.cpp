// names.cpp — to_string and parse_channel_kind over the name tables of names.hpp.
#include "core/names.hpp"

namespace rtpar {

const char* to_string(PlannerKind kind) noexcept { return names::name_of(names::kPlanners, kind); }
const char* to_string(OverrunPolicy policy) noexcept {
  return names::name_of(names::kOverruns, policy);
}
const char* to_string(RuntimeKind kind) noexcept { return names::name_of(names::kRuntimes, kind); }
const char* to_string(FitKind kind) noexcept { return names::name_of(names::kFits, kind); }
const char* to_string(AssignKind kind) noexcept { return names::name_of(names::kAssigns, kind); }
const char* to_string(WaitKind kind) noexcept { return names::name_of(names::kWaits, kind); }
const char* to_string(ChannelKind kind) noexcept { return names::name_of(names::kChannels, kind); }
const char* to_string(ManifestClass klass) noexcept {
  return names::name_of(names::kManifestClasses, klass);
}

std::optional<ChannelKind> parse_channel_kind(std::string_view name) noexcept {
  return names::value_of(names::kChannels, name);
}

}  // namespace rtpar
