// budget_rules.cpp — see budget_rules.hpp.
#include "model/budget_rules.hpp"

#include <algorithm>

namespace rtpar::model {

std::vector<int> plan_cores_of(const Plan& plan, std::size_t i) {
  const TaskPlan& tp = plan.tasks[i];
  std::vector<int> cores = tp.cores;
  cores.insert(cores.end(), tp.thread_cores.begin(), tp.thread_cores.end());
  for (const SegmentPlan& seg : tp.segments) {
    for (const StrandPlan& strand : seg.strands) cores.push_back(strand.core);
  }
  std::sort(cores.begin(), cores.end());
  cores.erase(std::unique(cores.begin(), cores.end()), cores.end());
  cores.erase(std::remove(cores.begin(), cores.end(), -1), cores.end());
  return cores;
}

bool shares_core(const Plan& plan, std::size_t i) {
  const std::vector<int> mine = plan_cores_of(plan, i);
  for (std::size_t j = 0; j < plan.tasks.size(); ++j) {
    if (j == i) continue;
    const std::vector<int> theirs = plan_cores_of(plan, j);
    std::vector<int> both;
    std::set_intersection(mine.begin(), mine.end(), theirs.begin(), theirs.end(),
                          std::back_inserter(both));
    if (!both.empty()) return true;
  }
  return false;
}

BudgetMode effective_budget(const TaskSet& set, const Plan& plan, std::size_t i) {
  if (set.tasks[i].budget) return *set.tasks[i].budget;
  if (set.system.budget) return *set.system.budget;
  return shares_core(plan, i) ? BudgetMode::enforce : BudgetMode::monitor;
}

}  // namespace rtpar::model
