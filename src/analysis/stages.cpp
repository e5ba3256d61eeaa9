// stages.cpp — see stages.hpp.
#include "analysis/stages.hpp"

#include <algorithm>
#include <numeric>

#include "analysis/priorities.hpp"

namespace rtpar::analysis {

std::optional<std::vector<SegmentSpec>> stages_of(const TaskSpec& task, std::string& why) {
  if (!task.segments.empty()) return task.segments;
  if (task.dag) {
    why = "a [[task.node]] DAG is not a fork/join task; describe it with [[task.segment]]";
    return std::nullopt;
  }
  if (task.work == task.span) return std::vector<SegmentSpec>{SegmentSpec{1, task.work, {}}};
  why = "a parallel task (C > L) needs its structure ([[task.segment]] or the segments kernel)";
  return std::nullopt;
}

std::vector<int> dm_priorities(const TaskSet& set) {
  std::vector<std::size_t> order(set.tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&set](std::size_t a, std::size_t b) {
    return dm_before(set.tasks[a], a, set.tasks[b], b);
  });
  std::vector<int> priority(set.tasks.size(), kBottomPriority);
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const std::size_t i = order[rank];
    priority[i] = std::max(kBottomPriority, kTopPriority - static_cast<int>(rank));
    if (set.tasks[i].priority) priority[i] = *set.tasks[i].priority;
  }
  return priority;
}

}  // namespace rtpar::analysis
