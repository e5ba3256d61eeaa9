// check_fuzz.cpp — libFuzzer target for admission control on any task set the parser accepts:
// parse_taskset, then every planner (what `rtpar check --planner all` does), then the plan's
// JSON and table.
//
// Properties: no crash, sanitizer report or hang (libFuzzer's -timeout) in any planner; and every
// response bound of a plan that admits the set is sound on its face: the bound lies between the
// task's critical path L (no schedule finishes a job sooner) and its deadline D. A bound below L
// is what an overflowing sum produces (issue 12: R = 1 ms admitted for L = 4 ms).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rtpar::TaskSet set;
  if (!rtpar::fuzz::expect_input_error(
          [&] { set = rtpar::parse_taskset(rtpar::fuzz::as_text(data, size), "fuzz.toml"); })) {
    return 0;
  }
  for (const rtpar::PlannerKind planner :
       {rtpar::PlannerKind::federated, rtpar::PlannerKind::federated_ws,
        rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta,
        rtpar::PlannerKind::partitioned}) {
    rtpar::fuzz::expect_input_error([&] {
      const rtpar::Plan plan = rtpar::plan_with(planner, set);
      (void)rtpar::plan_json(plan, set);
      (void)rtpar::plan_table(plan, set);
      if (!plan.schedulable) return;
      for (std::size_t i = 0; i < plan.tasks.size() && i < set.tasks.size(); ++i) {
        const auto& bound = plan.tasks[i].response_bound_ns;
        const rtpar::TaskSpec& task = set.tasks[i];
        if (bound && (*bound < task.span.count() || *bound > task.deadline.count())) {
          rtpar::fuzz::fail_finding("planner " + std::to_string(static_cast<int>(planner)) +
                                    " admitted task '" + task.name + "' with response bound " +
                                    std::to_string(*bound) + " ns outside [L, D] = [" +
                                    std::to_string(task.span.count()) + ", " +
                                    std::to_string(task.deadline.count()) + "] ns");
        }
      }
    });
  }
  return 0;
}
