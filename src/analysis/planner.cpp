// planner.cpp — plan_taskset / plan_with: the entry points that pick a planner.
#include <string>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"

namespace rtpar {

Plan plan_with(PlannerKind planner, const TaskSet& set, const PlanOptions& options) {
  switch (planner) {
    case PlannerKind::federated:
      return plan_federated(set);
    case PlannerKind::federated_ws:
      return plan_federated_ws(set);
    case PlannerKind::decomposition:
      return plan_decomposition(set, options);
    case PlannerKind::fork_join_rta:
      return plan_fork_join_rta(set, options);
    case PlannerKind::partitioned:
      return plan_partitioned(set, options);
  }
  // Only reachable with a PlannerKind value cast from outside the enum.
  throw InputError(set.system.where, "system.planner",
                   "unknown planner " + std::to_string(static_cast<int>(planner)));
}

Plan plan_taskset(const TaskSet& set, const PlanOptions& options) {
  return plan_with(set.system.planner, set, options);
}

}  // namespace rtpar
