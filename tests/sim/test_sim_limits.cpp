// test_sim_limits.cpp — the simulator's job limit (SimOptions::max_jobs): an explicit horizon that
// releases more jobs is refused, a default horizon is shortened to fit, and released_jobs counts
// exactly what the engine releases.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/simulate.hpp"

namespace {

rtpar::TaskSpec task(const std::string& name, std::int64_t period, std::int64_t phase = 0) {
  rtpar::TaskSpec t;
  t.name = name;
  t.work = t.span = rtpar::Duration(10);
  t.period = t.deadline = rtpar::Duration(period);
  t.phase = rtpar::Duration(phase);
  return t;
}

// two_tasks is a set of coprime periods 1,000 and 1,001 ns (hyperperiod 1,001,000 ns) on core 0,
// planned by hand: both placed.
struct Fixture {
  rtpar::TaskSet set;
  rtpar::Plan plan;
  Fixture() {
    set.source = "<test>";
    set.system.cores = {0};
    set.tasks = {task("a", 1'000), task("b", 1'001, 500)};
    plan.planner = rtpar::PlannerKind::partitioned;
    plan.cores = {0};
    for (int i = 0; i < 2; ++i) {
      rtpar::TaskPlan tp;
      tp.name = set.tasks[static_cast<std::size_t>(i)].name;
      tp.cores = {0};
      tp.priority = 50 - i;
      plan.tasks.push_back(tp);
    }
  }
};

}  // namespace

TEST_CASE("sim: released_jobs counts the releases phase + k·T before the horizon") {
  const Fixture f;
  CHECK(rtpar::released_jobs(f.set, 1) == 1);      // a at 0; b's phase is 500
  CHECK(rtpar::released_jobs(f.set, 501) == 2);    // + b at 500
  CHECK(rtpar::released_jobs(f.set, 1'000) == 2);  // a's next release is at 1,000, excluded
  CHECK(rtpar::released_jobs(f.set, 1'001) == 3);
  CHECK(rtpar::released_jobs(f.set, INT64_MAX) > 0);  // no overflow at the edge
}

TEST_CASE("sim: an explicit horizon releasing more than max_jobs is refused, not run for hours") {
  const Fixture f;
  rtpar::SimOptions options;
  options.max_jobs = 100;
  options.horizon_ns = 100'000;  // 100 + 100 jobs
  CHECK_THROWS_AS(rtpar::simulate_plan(f.plan, f.set, options), rtpar::InputError);
  options.horizon_ns = 50'000;  // 50 + 50: at the limit
  const rtpar::SimResult r = rtpar::simulate_plan(f.plan, f.set, options);
  CHECK(r.tasks[0].jobs + r.tasks[1].jobs == 100);
}

TEST_CASE("sim: a default horizon is shortened to max_jobs and marked capped") {
  const Fixture f;
  rtpar::SimOptions options;
  options.max_jobs = 100;  // the hyperperiod + phase window would release ~4,000
  const rtpar::SimResult r = rtpar::simulate_plan(f.plan, f.set, options);
  CHECK(r.horizon_capped);
  CHECK(r.tasks[0].jobs + r.tasks[1].jobs <= 100);
  CHECK(r.tasks[0].jobs + r.tasks[1].jobs >= 99);  // the longest horizon that fits
  CHECK(rtpar::released_jobs(f.set, r.horizon_ns) <= 100);
  CHECK(rtpar::released_jobs(f.set, r.horizon_ns + 1) > 100);
}
