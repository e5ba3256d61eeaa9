// partitioned_budget.cpp — see partitioned_budget.hpp.
#include "analysis/planners/partitioned_budget.hpp"

#include <algorithm>

#include "analysis/planners/partitioned_part.hpp"

namespace rtpar::analysis {

std::optional<std::vector<std::int64_t>> member_budgets(const TaskSpec& task,
                                                        const std::vector<int>& thread_cores) {
  if (thread_cores.size() < 2 || task.runtime != RuntimeKind::team) return std::nullopt;
  Part p;
  p.c = task.work.count();
  p.d = task.deadline.count();
  p.t = task.period.count();
  p.thread_cores = thread_cores;
  p.cores = thread_cores;
  std::sort(p.cores.begin(), p.cores.end());
  p.cores.erase(std::unique(p.cores.begin(), p.cores.end()), p.cores.end());
  if (p.cores.size() != p.thread_cores.size()) return std::nullopt;  // threads share a core
  shape_part(p, task, PartCharges{});
  if (p.reason) return std::nullopt;
  std::vector<std::int64_t> out;
  out.reserve(thread_cores.size());
  for (const int cpu : thread_cores) {
    const auto at = std::lower_bound(p.cores.begin(), p.cores.end(), cpu);
    out.push_back(p.core_work[static_cast<std::size_t>(at - p.cores.begin())]);
  }
  return out;
}

}  // namespace rtpar::analysis
