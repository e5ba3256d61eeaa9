// consumer.cpp — uses the installed rtpar headers and library: plans a task set built in code.
#include <rtpar/plan.hpp>
#include <rtpar/taskset.hpp>

#include <chrono>
#include <cstdio>

int main() {
  using namespace std::chrono_literals;
  rtpar::TaskSet set;
  set.system.cores = {0, 1, 2, 3};
  rtpar::TaskSpec t;
  t.name = "heavy";
  t.period = t.deadline = 10ms;
  t.work = 14ms;
  t.span = 8ms;
  set.tasks = {t};
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  std::printf("schedulable=%d cores=%zu\n", plan.schedulable ? 1 : 0, plan.tasks[0].cores.size());
  return plan.schedulable && plan.tasks[0].cores.size() == 3 ? 0 : 1;
}
