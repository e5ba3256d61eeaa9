// required_cores.cpp — required_cores: RTWS's RTCG search of the smallest core count whose
// simulated miss ratio is under a threshold (rtpar/tools/simulate.hpp; RTWS §VII, Fig. 8).
#include <algorithm>
#include <cmath>
#include <string>

#include "rtpar/error.hpp"
#include "rtpar/tools/simulate.hpp"
#include "rtpar/tools/topology.hpp"
#include "sim/sim_model.hpp"

namespace rtpar {

RequiredCoresResult required_cores(PlannerKind planner, const TaskSet& set,
                                   const PlanOptions& plan_options, const SimOptions& sim,
                                   const RequiredCoresOptions& options) {
  // Written so that NaN fails too.
  if (!(options.miss_threshold >= 0.0 && options.miss_threshold <= 1.0)) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--miss-threshold",
                     "must be in [0, 1]");
  }
  if (options.min_cores < 1 || options.max_cores < options.min_cores ||
      options.max_cores > kMaxProfiledThreads) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--max-cores",
                     "must be in [" + std::to_string(std::max(1, options.min_cores)) + ", " +
                         std::to_string(kMaxProfiledThreads) + "]");
  }
  RequiredCoresResult result;
  result.planner = planner;
  result.miss_threshold = options.miss_threshold;
  result.max_cores = options.max_cores;
  for (int m = options.min_cores; m <= options.max_cores; ++m) {
    // A machine of m cores on one socket, CPU ids 0..m−1 (as `--target <m>c`).
    const Topology target = parse_target(std::to_string(m) + "c");
    PlanOptions po = plan_options;
    po.target = &target;
    const Plan plan = plan_with(planner, set, po);
    RequiredCoresStep step;
    step.cores = m;
    step.plan_schedulable = plan.schedulable;
    // Placement is the model's (a task with no thread is not placed); a partial plan is not
    // simulated at all, since it cannot meet R whatever its placed tasks do.
    const sim::SimModel model = sim::build_sim_model(plan, set);
    step.placed = std::all_of(model.task_of_set.begin(), model.task_of_set.end(),
                              [](int i) { return i >= 0; });
    if (step.placed) {
      const SimResult r = simulate_plan(plan, set, sim);
      step.miss_ratio = set_metrics(r).miss_ratio.value_or(0.0);
      step.meets = *step.miss_ratio <= options.miss_threshold;
    }
    result.steps.push_back(step);
    if (step.meets) {
      result.cores = m;
      break;
    }
  }
  return result;
}

}  // namespace rtpar
