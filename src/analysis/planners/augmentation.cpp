// augmentation.cpp — augmentation_bound_holds of rtpar/tools/planners.hpp: the bound test of
// analysis/bounds/augmentation_bound.hpp with b taken to 6 decimals, on the planners' checked
// task parameters.
#include "analysis/bounds/augmentation_bound.hpp"
#include "analysis/planners/lock_blocking.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar {

bool augmentation_bound_holds(const TaskSet& set, int cores, double b) {
  model::check_task_parameters(set);
  // The bound is for independent tasks: a set sharing a lock never holds it (lock_blocking.hpp).
  if (analysis::has_lock_channels(set)) return false;
  return analysis::augmentation_bound_holds(set, cores, analysis::bound_ratio(b));
}

}  // namespace rtpar
