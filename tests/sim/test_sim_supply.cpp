// test_sim_supply.cpp — the supply loss of an overhead profile injected into the simulator as a
// blackout above every task of every core (sim/sim_model.hpp; docs/internals/simulation.md,
// "Supply loss"): exact schedules by hand, and the planners' charged bounds holding against it.
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "support/overhead_fixtures.hpp"

namespace {

constexpr std::int64_t kMs = 1'000'000;

// simulated plans `text` with the profile charged and simulates it with the profile injected.
struct Run {
  rtpar::Plan plan;
  rtpar::SimResult sim;
};
Run simulated(const std::string& text, const rtpar::OverheadProfile& profile,
              rtpar::OverheadStatistic statistic = rtpar::OverheadStatistic::p999) {
  const rtpar::TaskSet set = rtpar::parse_taskset(text, "<supply>");
  rtpar::PlanOptions po;
  po.overhead = &profile;
  Run r{rtpar::plan_taskset(set, po), {}};
  REQUIRE(r.plan.schedulable);
  rtpar::SimOptions so;
  so.overhead = &profile;
  so.overhead_statistic = statistic;
  so.horizon_ns = 200 * kMs;
  r.sim = rtpar::simulate_plan(r.plan, set, so);
  return r;
}

}  // namespace

TEST_CASE("supply injection: a blackout of 1 ms every 10 ms delays a 2 ms job to exactly 3 ms") {
  const rtpar::OverheadProfile profile = rtpar::testing::costless_profile({{10 * kMs, 1 * kMs, 1}});
  // Fixed priority and EDF alike: the blackout is above both ([0, 1) ms of every 10 ms), so every
  // job released at k·10 ms runs [k·10 + 1, k·10 + 3): R = 3 ms, the charged bound.
  for (const std::string scheduling : {"priority = 50", ""}) {
    CAPTURE(scheduling);
    const Run r = simulated(rtpar::testing::one_core_task(scheduling), profile);
    REQUIRE(r.sim.tasks.size() == 1);  // the blackouts are no task of the result
    CHECK(*r.sim.tasks[0].max_response_ns == 3 * kMs);
    CHECK(*r.plan.tasks[0].response_bound_ns == 3 * kMs);
    CHECK(r.sim.misses == 0);
  }
  // p50, p99 and sampled inject no blackout (the profile states only the largest loss).
  const Run typical = simulated(rtpar::testing::one_core_task("priority = 50"), profile,
                                rtpar::OverheadStatistic::p50);
  CHECK(*typical.sim.tasks[0].max_response_ns == 2 * kMs);
  // Without supply entries nothing is injected either.
  const Run none = simulated(rtpar::testing::one_core_task("priority = 50"),
                             rtpar::testing::costless_profile({}));
  CHECK(*none.sim.tasks[0].max_response_ns == 2 * kMs);
}

TEST_CASE("supply injection: the charged bounds of every planner hold with the blackouts") {
  // The demo with 4 middle strands (C = 15, L = 6, D = 20 ms on 2 cores) under 0.5 ms lost in
  // every 10 ms, planned by each planner: the simulated maximum stays within the bound the supply
  // loss raised.
  const rtpar::OverheadProfile profile = rtpar::testing::costless_profile({{10 * kMs, 500'000, 1}});
  for (const std::string planner :
       {"federated", "federated-ws", "fork-join-rta", "decomposition", "partitioned"}) {
    CAPTURE(planner);
    std::string text = rtpar::testing::demo_set(
        planner, planner == "partitioned" ? "places = [0, 1]\nthreads = 2\npriority = 50\n" : "");
    // 4 strands in the middle (C = 15 ms) so that federated-ws (δ = 1.5) admits it on 2 cores.
    text.replace(text.find("strands = 6"), 11, "strands = 4");
    const Run r = simulated(text, profile);
    REQUIRE(r.sim.tasks[0].max_response_ns);
    REQUIRE(r.plan.tasks[0].response_bound_ns);
    CHECK(*r.sim.tasks[0].max_response_ns <= *r.plan.tasks[0].response_bound_ns);
    CHECK(*r.sim.tasks[0].max_response_ns > 9 * kMs);  // the blackouts did delay it
    CHECK(r.sim.misses == 0);
  }
}
