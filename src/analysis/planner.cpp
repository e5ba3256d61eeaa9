// planner.cpp — plan_taskset: the single entry point that picks the planner the file names.
#include <string>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"

namespace rtpar {

Plan plan_taskset(const TaskSet& set) {
  switch (set.system.planner) {
    case PlannerKind::federated:
      return plan_federated(set);
    case PlannerKind::federated_ws:
      return plan_federated_ws(set);
  }
  // Only reachable with a PlannerKind value cast from outside the enum.
  throw InputError(set.system.where, "system.planner",
                   "unknown planner " + std::to_string(static_cast<int>(set.system.planner)));
}

}  // namespace rtpar
