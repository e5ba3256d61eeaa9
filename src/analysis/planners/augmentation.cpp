// augmentation.cpp — augmentation_bound_holds of rtpar/tools/planners.hpp: the bound test of
// analysis/bounds/augmentation_bound.hpp with b taken to 6 decimals, on the planners' checked
// task parameters.
#include "analysis/bounds/augmentation_bound.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar {

bool augmentation_bound_holds(const TaskSet& set, int cores, double b) {
  model::check_task_parameters(set);
  return analysis::augmentation_bound_holds(set, cores, analysis::bound_ratio(b));
}

}  // namespace rtpar
