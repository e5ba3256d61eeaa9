// priorities.cpp — SCHED_FIFO priority assignment (rules in priorities.hpp and docs/analysis.md).
#include "analysis/bounds/priorities.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include <fmt/format.h>

namespace rtpar::analysis {

bool dm_before(const TaskSpec& a, std::size_t ia, const TaskSpec& b, std::size_t ib) {
  if (a.deadline != b.deadline) return a.deadline < b.deadline;
  if (a.name != b.name) return a.name < b.name;
  return ia < ib;
}

PriorityScheme::PriorityScheme(const TaskSet& set, std::vector<bool> heavy)
    : set_(set), heavy_(std::move(heavy)), global_priority_(set.tasks.size(), kBottomPriority) {
  // Only tasks without an override consume a computed rank, so overrides do not shift the rest.
  std::vector<std::size_t> computed;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    if (set.tasks[i].priority) {
      global_priority_[i] = *set.tasks[i].priority;
    } else {
      computed.push_back(i);
    }
  }
  constexpr std::size_t kLevels = kTopPriority - kBottomPriority + 1;
  global_ = computed.size() <= kLevels;
  std::sort(computed.begin(), computed.end(), [&](std::size_t a, std::size_t b) {
    if (heavy_[a] != heavy_[b]) return static_cast<bool>(heavy_[a]);  // heavy above light
    return dm_before(set.tasks[a], a, set.tasks[b], b);
  });
  int next = kTopPriority;
  for (std::size_t i : computed) global_priority_[i] = std::max(next--, kBottomPriority);
}

int PriorityScheme::heavy_priority(std::size_t i) const {
  if (set_.tasks[i].priority) return *set_.tasks[i].priority;
  return global_ ? global_priority_[i] : kTopPriority;
}

std::vector<int> PriorityScheme::on_core(const std::vector<std::size_t>& members) const {
  if (global_) return on_core_ordered(members);  // global values do not depend on the order
  std::vector<std::size_t> order(members.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return dm_before(set_.tasks[members[a]], members[a], set_.tasks[members[b]], members[b]);
  });
  std::vector<std::size_t> sorted(members.size());
  for (std::size_t k = 0; k < order.size(); ++k) sorted[k] = members[order[k]];
  const std::vector<int> ranked = on_core_ordered(sorted);
  std::vector<int> out(members.size(), kBottomPriority);
  for (std::size_t k = 0; k < order.size(); ++k) out[order[k]] = ranked[k];
  return out;
}

std::vector<int> PriorityScheme::on_core_ordered(const std::vector<std::size_t>& members) const {
  std::vector<int> out(members.size(), kBottomPriority);
  if (global_) {
    for (std::size_t k = 0; k < members.size(); ++k) out[k] = global_priority_[members[k]];
    return out;
  }
  // Per core: light tasks without override get 89, 88, ... in DM order (90 belongs to heavy
  // tasks, which keeps "heavy above light" true machine-wide). Beyond 89 light tasks on one core
  // distinct values run out; the rest share priority 1, which the RTA treats pessimistically.
  int next = kTopPriority - 1;
  for (std::size_t k = 0; k < members.size(); ++k) {
    const TaskSpec& task = set_.tasks[members[k]];
    out[k] = task.priority ? *task.priority : std::max(next--, kBottomPriority);
  }
  return out;
}

std::string shared_priority_note(const TaskSet& set, int core,
                                 const std::vector<std::size_t>& members,
                                 const std::vector<int>& priorities) {
  std::map<int, std::vector<std::string>, std::greater<>> by_priority;
  for (std::size_t k = 0; k < members.size(); ++k) {
    by_priority[priorities[k]].push_back(set.tasks[members[k]].name);
  }
  std::string groups;
  for (const auto& [priority, names] : by_priority) {
    if (names.size() < 2) continue;
    if (!groups.empty()) groups += "; ";
    groups += fmt::format("{} share priority {}", fmt::join(names, ", "), priority);
  }
  if (groups.empty()) return "";
  return fmt::format(
      "core {}: {} (SCHED_FIFO runs them in arrival order; the analysis counts each as "
      "interfering with the others)",
      core, groups);
}

}  // namespace rtpar::analysis
