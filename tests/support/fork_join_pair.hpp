// fork_join_pair.hpp — fork/join tasks from their stages, and the two-task set on which
// fork-join-rta's gate-spin charge and the simulator's gate spin are worked by hand
// (tests/analysis/planners/test_fork_join_rta*.cpp, tests/sim/test_sim_gate_spin.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar::testing {

// fj_task is a task of `segments` (stages) with D = T = period, C and L summed from them, and
// the members' wait policy `wait` (the default: hybrid, 50 µs).
inline TaskSpec fj_task(const std::string& name, Duration period, std::vector<SegmentSpec> segments,
                        WaitPolicy wait = TaskSpec{}.wait) {
  TaskSpec t;
  t.name = name;
  t.period = period;
  t.deadline = period;
  t.wait = wait;
  t.segments = std::move(segments);
  for (const auto& s : t.segments) {
    t.work += s.length * s.strands;
    t.span += s.length;
  }
  return t;
}

// two_share: a (T = D = 4 ms, members waiting per `wait`) runs stage 0 (1 × 1 ms) and stage 1
// (2 × 2 ms) on CPUs {0, 1}, so under fork-join-rta its member on CPU 1 waits for stage 0 (on
// CPU 0) at every release; b (T = D = 20 ms, one strand of 6 ms, blocking) lands on CPU 1.
inline TaskSet two_share(WaitPolicy wait) {
  using namespace std::chrono_literals;
  TaskSet set;
  set.source = "<two share>";
  set.system.cores = {0, 1};
  set.tasks.push_back(fj_task("a", 4ms, {{1, 1ms, {}}, {2, 2ms, {}}}, wait));
  set.tasks.push_back(fj_task("b", 20ms, {{1, 6ms, {}}}, WaitPolicy::block()));
  validate_taskset(set);
  return set;
}

}  // namespace rtpar::testing
