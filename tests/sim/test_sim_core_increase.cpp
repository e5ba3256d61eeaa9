// test_sim_core_increase.cpp — core_increase (RTWS's required-cores search, RTWS §VII (3)) by
// hand on the bag set (support/sim_team_set.hpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "support/sim_team_set.hpp"

namespace {

// one_core is the federated plan of bag_set cut down to CPU 5 alone.
rtpar::Plan one_core(const rtpar::TaskSet& set) {
  rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  REQUIRE(plan.tasks.at(0).cores.size() == 2);
  plan.tasks[0].cores = {5};
  plan.tasks[0].thread_cores.clear();
  plan.cores = {5};
  return plan;
}

rtpar::SimOptions options() {
  rtpar::SimOptions o;
  o.horizon_ns = 1'000'000;  // 10 jobs
  return o;
}

}  // namespace

TEST_CASE("core increase: a task missing every job on one core meets all on two") {
  const rtpar::TaskSet set = rtpar::testing::bag_set();
  const rtpar::CoreIncreaseResult r =
      rtpar::core_increase(one_core(set), set, options(), rtpar::CoreIncreaseOptions{});
  REQUIRE(r.cores);
  CHECK(*r.cores == 2);  // CPU 5 and the new CPU 6
  CHECK(r.rounds == 2);
  CHECK(r.task_cores == std::vector<int>{2});
}

TEST_CASE("core increase: boundaries of the threshold and the machine") {
  const rtpar::TaskSet set = rtpar::testing::bag_set();
  // Missing every job is not above a threshold of 1: one core, one round.
  rtpar::CoreIncreaseOptions all;
  all.miss_threshold = 1.0;
  const rtpar::CoreIncreaseResult kept = rtpar::core_increase(one_core(set), set, options(), all);
  CHECK(kept.cores == 1);
  CHECK(kept.rounds == 1);
  // A machine of one core cannot give it the second: no answer (the paper's "34").
  rtpar::CoreIncreaseOptions small;
  small.max_cores = 1;
  const rtpar::CoreIncreaseResult none = rtpar::core_increase(one_core(set), set, options(), small);
  CHECK_FALSE(none.cores);
  CHECK(none.rounds == 1);
  // Bad thresholds and machines are input errors.
  rtpar::CoreIncreaseOptions bad;
  bad.miss_threshold = 1.5;
  CHECK_THROWS_AS(rtpar::core_increase(one_core(set), set, options(), bad), rtpar::InputError);
  bad = {};
  bad.max_cores = 0;
  CHECK_THROWS_AS(rtpar::core_increase(one_core(set), set, options(), bad), rtpar::InputError);
}

TEST_CASE("core increase: a strand plan is refused") {
  rtpar::TaskSet set;
  set.source = "<core increase>";
  set.system.cores = {0, 1};
  rtpar::TaskSpec t;
  t.name = "s";
  t.period = t.deadline = rtpar::Duration(10'000);
  t.segments = {{2, rtpar::Duration(1'000), {}}};
  t.work = rtpar::Duration(2'000);
  t.span = rtpar::Duration(1'000);
  set.tasks.push_back(t);
  rtpar::validate_taskset(set);
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, {});
  CHECK_THROWS_AS(rtpar::core_increase(plan, set, options(), {}), rtpar::InputError);
}
