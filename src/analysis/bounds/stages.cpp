// stages.cpp — see stages.hpp.
#include "analysis/bounds/stages.hpp"

#include <algorithm>
#include <numeric>

#include "analysis/bounds/priorities.hpp"
#include "core/checked_math.hpp"
#include "model/structure.hpp"

namespace rtpar::analysis {

std::vector<SegmentSpec> synchronous_form(const DagSpec& dag) {
  // Earliest start ES(v) = max over predecessors of their earliest finish, in topological order
  // (the model guarantees acyclicity, and that the longest path L stays below 2^63 − 1 ns, so no
  // finish ES + length ≤ L overflows; the sums saturate all the same rather than rely on it).
  const std::size_t n = dag.nodes.size();
  std::vector<std::int64_t> start(n, 0);
  std::vector<std::int64_t> cuts;
  for (const std::size_t v : model::topological_order(dag)) {
    for (const int p : dag.nodes[v].after) {
      const auto u = static_cast<std::size_t>(p);
      start[v] = std::max(start[v], sat_add(start[u], dag.nodes[u].length.count()));
    }
    cuts.push_back(start[v]);
    cuts.push_back(sat_add(start[v], dag.nodes[v].length.count()));
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  // Every interval between consecutive cuts is a segment; its strands are the nodes running in it
  // when each node starts as early as possible.
  std::vector<SegmentSpec> segments;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    std::int64_t active = 0;
    for (std::size_t v = 0; v < n; ++v) {
      if (start[v] <= cuts[k] && cuts[k + 1] <= sat_add(start[v], dag.nodes[v].length.count())) {
        ++active;
      }
    }
    if (active > 0) segments.push_back(SegmentSpec{active, Duration(cuts[k + 1] - cuts[k]), {}});
  }
  return segments;
}

std::optional<std::vector<SegmentSpec>> stages_of(const TaskSpec& task, std::string& why) {
  if (!task.segments.empty()) return task.segments;
  if (task.dag) return synchronous_form(*task.dag);
  if (task.work == task.span) return std::vector<SegmentSpec>{SegmentSpec{1, task.work, {}}};
  why = "a parallel task (C > L) needs its structure ([[task.segment]] or the segments kernel)" +
        structure_hint(task);
  return std::nullopt;
}

std::string structure_hint(const TaskSpec& task) {
  const bool omp = task.kernel.rfind("omp:", 0) == 0;
  return std::string("; ") +
         (omp ? "an `omp:` kernel's structure is the OpenMP program's own: " : "without one, ") +
         "planner = \"federated\", \"federated-ws\" or \"partitioned\" plan it from C and L alone";
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
