// planners_only.cpp — a program that plans a task set and runs nothing: it includes only the task
// model and the planners (tools tier), and must compile without any runtime header (team,
// channels, work stealing, <atomic>); tests/consumer/planners_only.sh checks the header closure.
#include <rtpar/taskset.hpp>
#include <rtpar/tools/planners.hpp>

#include <chrono>
#include <cstdio>

int main() {
  using namespace std::chrono_literals;
  rtpar::TaskSet set;
  set.system.cores = {0, 1, 2, 3};
  rtpar::TaskSpec heavy;
  heavy.name = "fusion";
  heavy.period = heavy.deadline = 10ms;
  heavy.work = 24ms;  // C > D: a heavy task, federated gives it ceil((24-2)/(10-2)) = 3 cores
  heavy.span = 2ms;
  heavy.kernel = "spin";
  set.tasks.push_back(heavy);
  rtpar::validate_taskset(set);
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  if (!plan.schedulable || plan.tasks.size() != 1 || plan.tasks[0].cores.size() != 3) {
    std::fprintf(stderr, "unexpected plan: schedulable=%d cores=%zu\n", plan.schedulable ? 1 : 0,
                 plan.tasks.empty() ? std::size_t{0} : plan.tasks[0].cores.size());
    return 1;
  }
  std::puts("planners-only consumer OK");
  return 0;
}
