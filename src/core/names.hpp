// names.hpp — one name table per enumeration of the task-set format, the experiment manifest,
// overhead profiles and the simulator: the spelling files and flags use, read by the loaders
// (load/taskset_parse.cpp, experiment/manifest.cpp), the simulator's settings
// (sim/sim_options.cpp) and printed by to_string. A new enumerator gets its name here and nowhere
// else.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

#include "core/manifest_class.hpp"
#include "rtpar/channel_kind.hpp"
#include "rtpar/task_kinds.hpp"
#include "rtpar/tools/sim_kinds.hpp"
#include "rtpar/wait_policy.hpp"

namespace rtpar::names {

// kPlanners spells PlannerKind ([system] planner).
inline constexpr std::pair<std::string_view, PlannerKind> kPlanners[] = {
    {"federated", PlannerKind::federated},
    {"federated-ws", PlannerKind::federated_ws},
    {"decomposition", PlannerKind::decomposition},
    {"fork-join-rta", PlannerKind::fork_join_rta},
    {"partitioned", PlannerKind::partitioned}};

// kFits spells FitKind ([system] fit).
inline constexpr std::pair<std::string_view, FitKind> kFits[] = {{"fbb-ffd", FitKind::fbb_ffd},
                                                                 {"first-fit", FitKind::first_fit},
                                                                 {"worst-fit", FitKind::worst_fit}};

// kAssigns spells AssignKind (`--assign` of check and simulate).
inline constexpr std::pair<std::string_view, AssignKind> kAssigns[] = {
    {"greedy", AssignKind::greedy}, {"worst-fit", AssignKind::worst_fit}};

// kRuntimes spells RuntimeKind ([[task]] runtime).
inline constexpr std::pair<std::string_view, RuntimeKind> kRuntimes[] = {
    {"team", RuntimeKind::team}, {"steal", RuntimeKind::steal}};

// kOverruns spells OverrunPolicy ([[task]] overrun).
inline constexpr std::pair<std::string_view, OverrunPolicy> kOverruns[] = {
    {"queue", OverrunPolicy::queue}, {"skip", OverrunPolicy::skip}};

// kBudgets spells BudgetMode ([[task]] budget, [system] budget).
inline constexpr std::pair<std::string_view, BudgetMode> kBudgets[] = {
    {"none", BudgetMode::none}, {"monitor", BudgetMode::monitor}, {"enforce", BudgetMode::enforce}};

// kWaits spells WaitKind ([[task]] wait, overhead profiles).
inline constexpr std::pair<std::string_view, WaitKind> kWaits[] = {
    {"spin", WaitKind::spin}, {"block", WaitKind::block}, {"hybrid", WaitKind::hybrid}};

// kChannels spells ChannelKind ([[channel]] kind).
inline constexpr std::pair<std::string_view, ChannelKind> kChannels[] = {
    {"retry", ChannelKind::retry},
    {"double_buffer", ChannelKind::double_buffer},
    {"latest", ChannelKind::latest},
    {"lock", ChannelKind::lock}};

// kLockProtocols spells LockProtocol (plans, reports).
inline constexpr std::pair<std::string_view, LockProtocol> kLockProtocols[] = {
    {"ceiling", LockProtocol::ceiling}, {"msrp", LockProtocol::msrp}};

// kManifestClasses spells ManifestClass ([experiment] class of a manifest).
inline constexpr std::pair<std::string_view, ManifestClass> kManifestClasses[] = {
    {"analysis", ManifestClass::analysis},
    {"simulation", ManifestClass::simulation},
    {"runtime", ManifestClass::runtime},
    {"bench", ManifestClass::bench}};

// kOverheadStatistics spells OverheadStatistic (--overhead-statistic, --charged-statistic, the
// manifest's overhead_statistic and charged_statistic).
inline constexpr std::pair<std::string_view, OverheadStatistic> kOverheadStatistics[] = {
    {"p50", OverheadStatistic::p50},
    {"p99", OverheadStatistic::p99},
    {"p99.9", OverheadStatistic::p999},
    {"max", OverheadStatistic::max},
    {"sampled", OverheadStatistic::sampled}};

// kTeamModels spells TeamModel (--team-model, the manifest's team_model).
inline constexpr std::pair<std::string_view, TeamModel> kTeamModels[] = {
    {"greedy", TeamModel::greedy},
    {"centralized", TeamModel::centralized},
    {"steal", TeamModel::steal}};

// name_of is the spelling of value in table, or "unknown" for a value cast from an integer that
// no enumerator has.
template <typename Enum, std::size_t N>
constexpr const char* name_of(const std::pair<std::string_view, Enum> (&table)[N], Enum value) {
  for (const auto& [name, v] : table) {
    if (v == value) return name.data();  // the table's literals are NUL-terminated
  }
  return "unknown";
}

// value_of is the enumerator spelled `name` in table, or nullopt.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_of(const std::pair<std::string_view, Enum> (&table)[N],
                                       std::string_view name) {
  for (const auto& [n, v] : table) {
    if (n == name) return v;
  }
  return std::nullopt;
}

}  // namespace rtpar::names
