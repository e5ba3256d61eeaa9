// test_sim_gate_spin.cpp — strand plans' members spin at a gate as their task's wait policy says
// (SimNode::spin; docs/internals/simulation.md, "Gate spin"), by hand on fork-join-rta's two-task
// example (tests/analysis/planners/test_fork_join_rta_spin.cpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "support/fork_join_pair.hpp"

using namespace std::chrono_literals;
using rtpar::testing::two_share;

namespace {

// first_b_job simulates `plan` of `set` for one period of b and returns b's first job.
rtpar::SimJob first_b_job(const rtpar::Plan& plan, const rtpar::TaskSet& set) {
  rtpar::SimOptions o;
  o.record_jobs = true;
  o.horizon_ns = 20'000'000;
  const rtpar::SimResult r = rtpar::simulate_plan(plan, set, o);
  REQUIRE(r.tasks.at(1).jobs_log.size() == 1);
  CHECK(r.tasks.at(0).misses == 0);  // a's own jobs: 3 ms each, whatever its members' wait
  return r.tasks.at(1).jobs_log.front();
}

}  // namespace

TEST_CASE("sim gate spin: block, hybrid and spin members delay the task sharing their core") {
  const rtpar::TaskSet blocking = two_share(rtpar::WaitPolicy::block());
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, blocking);
  REQUIRE(plan.schedulable);
  REQUIRE(plan.tasks[1].cores == std::vector<int>{1});
  // block: CPU 1 runs a's strand in [4k + 1, 4k + 3] ms; b gets [0, 1], [3, 5], [7, 9], [11, 12]:
  // done at 12 ms (bound 14 ms).
  CHECK(first_b_job(plan, blocking).finish_ns == 12'000'000);
  // hybrid 50 µs: a's member on CPU 1 spins [4k, 4k + 0.05] ms before it sleeps on the gate;
  // b: 0.95 + 1 + 0.95 + 1 + 0.95 + 1 + 0.15 = 6 ms, done at 12.2 ms (the hybrid bound: 14.2 ms).
  const rtpar::TaskSet hybrid = two_share(rtpar::WaitPolicy::hybrid(50us));
  CHECK(first_b_job(plan, hybrid).finish_ns == 12'200'000);
  // spin: the member spins until the gate opens at 4k + 1 ms (stage 0's makespan): CPU 1 is a's
  // in [4k, 4k + 3], b gets [4k + 3, 4k + 4] — 5 ms by 20 ms, where a's releases end (horizon), and
  // the last 1 ms in [20, 21]: a miss on the plan made for block (bound 14 ms), which is why
  // fork-join-rta now refuses b beside a spinning a.
  const rtpar::SimJob spun = first_b_job(plan, two_share(rtpar::WaitPolicy::spin()));
  CHECK(spun.missed);
  CHECK(spun.finish_ns == 21'000'000);
}
