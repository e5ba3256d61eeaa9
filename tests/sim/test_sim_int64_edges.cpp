// test_sim_int64_edges.cpp — the simulator with times at the edge of int64 (periods and phases of
// 2^63 − 1 ns, jobs of 2^62 ns): no overflow (each case was a signed overflow under UBSan), and
// the results a saturating clock gives ("never" past 2^63 − 1 ns).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/simulate.hpp"

namespace {

constexpr std::int64_t kMax = INT64_MAX;
constexpr std::int64_t kHalf = std::int64_t{1} << 62;

rtpar::TaskSpec task(const std::string& name, std::int64_t work, std::int64_t period,
                     std::int64_t phase = 0) {
  rtpar::TaskSpec t;
  t.name = name;
  t.work = t.span = rtpar::Duration(work);
  t.period = t.deadline = rtpar::Duration(period);
  t.phase = rtpar::Duration(phase);
  return t;
}

rtpar::TaskSet one_core() {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0};
  return set;
}

}  // namespace

TEST_CASE("sim: the default horizon of a phase and a period of 2^63 − 1 ns saturates") {
  rtpar::TaskSet set = one_core();
  set.tasks.push_back(task("a", 1'000, kMax, kMax));
  // max phase + max period overflowed int64; it saturates to "never".
  const rtpar::SimHorizon h = rtpar::default_sim_horizon(set, 10'000'000'000);
  CHECK(h.horizon_ns == kMax);
}

TEST_CASE("sim: two jobs of 2^62 ns on one core run to 2^63 ns without overflowing the clock") {
  // Both on core 0, a above b. The engine computed t + remaining work for the running job, which
  // overflowed once b ran at t = 2^62 with 2^62 ns left; now that finish saturates at 2^63 − 1 ns
  // ("never" within the horizon), so b is cut at the horizon instead.
  rtpar::TaskSet set = one_core();
  set.tasks.push_back(task("a", kHalf, kMax));
  set.tasks.push_back(task("b", kHalf, kMax));
  rtpar::Plan plan;
  plan.planner = rtpar::PlannerKind::partitioned;
  plan.cores = {0};
  for (int i = 0; i < 2; ++i) {
    rtpar::TaskPlan tp;
    tp.name = set.tasks[static_cast<std::size_t>(i)].name;
    tp.cores = {0};
    tp.priority = 50 - i;
    plan.tasks.push_back(tp);
  }
  rtpar::SimOptions options;
  options.horizon_ns = kHalf + 1'000;
  const rtpar::SimResult r = rtpar::simulate_plan(plan, set, options);
  REQUIRE(r.tasks.size() == 2);
  CHECK(r.tasks[0].completed == 1);
  CHECK(r.tasks[0].max_response_ns == kHalf);
  CHECK(r.tasks[1].jobs == 1);
  CHECK(r.tasks[1].completed == 0);
}
