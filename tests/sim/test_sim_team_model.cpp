// test_sim_team_model.cpp — SimOptions::team_model: the centralized model (one FIFO queue behind
// one lock, RTWS's centralized greedy comparator) by hand, and the greedy default unchanged.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "support/sim_team_set.hpp"

using rtpar::testing::all_equal;

namespace {

// responses simulates 10 jobs of the federated plan and returns their responses.
std::vector<std::int64_t> responses(rtpar::TeamModel model, std::int64_t lock_ns) {
  const rtpar::TaskSet set = rtpar::testing::bag_set();
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  REQUIRE(plan.tasks.at(0).cores.size() == 2);
  rtpar::SimOptions o;
  o.team_model = model;
  o.queue_lock_ns = lock_ns;
  return rtpar::testing::first_task_responses(plan, set, o);
}

}  // namespace

TEST_CASE("team model: greedy and a free centralized queue run the bag in 2 µs") {
  CHECK(all_equal(responses(rtpar::TeamModel::greedy, 0), 2'000));
  CHECK(all_equal(responses(rtpar::TeamModel::centralized, 0), 2'000));
}

TEST_CASE("team model: a 3 µs queue lock serializes the bag (hand-computed 25 µs)") {
  // The release enqueues n0..n3 under the lock: holds end at 3, 6, 9, 12 µs (each is queued
  // then). Thread A, woken by n0 at 3, waits for the lock (free at 12), holds it to 15, runs n0
  // to 16. B, woken by n1 at 6, waits to 15, holds to 18, runs n1 to 19. A at 16 dequeues n2:
  // lock 18..21, runs to 22. B at 19 dequeues n3: lock 21..24, runs to 25.
  CHECK(all_equal(responses(rtpar::TeamModel::centralized, 3'000), 25'000));
}

TEST_CASE("team model: a queue lock without the centralized model is refused") {
  const rtpar::TaskSet set = rtpar::testing::bag_set();
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  rtpar::SimOptions o;
  o.queue_lock_ns = 1'000;
  CHECK_THROWS_WITH_AS(rtpar::simulate_plan(plan, set, o), doctest::Contains("queue_lock"),
                       rtpar::InputError);
  o.team_model = rtpar::TeamModel::centralized;
  o.queue_lock_ns = -1;
  CHECK_THROWS_WITH_AS(rtpar::simulate_plan(plan, set, o), doctest::Contains("queue_lock"),
                       rtpar::InputError);
}
