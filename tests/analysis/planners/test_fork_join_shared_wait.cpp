// test_fork_join_shared_wait.cpp — [system] shared_wait (decision F15; FJOS §VIII: the spin
// versions block when tasks share a core): fork-join-rta charges a task whose candidate placement
// shares a core with a task placed before it the shared policy's costs and records the switch in
// TaskPlan::wait, which the simulator (and the executor) follow. Hand-worked bounds, boundaries,
// the notes, and the simulated worst case at the critical instant.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "support/fork_join_pair.hpp"

using namespace std::chrono_literals;
using rtpar::WaitKind;

namespace {

// sw_cost is one profile entry of `threads` threads and policy `wait` costing `ns` at every
// statistic.
rtpar::ForkJoinCost sw_cost(int threads, WaitKind wait, std::int64_t ns) {
  rtpar::ForkJoinCost c;
  c.threads = threads;
  c.wait = wait;
  c.p50_ns = c.p99_ns = c.p999_ns = c.max_ns = ns;
  return c;
}

// sw_profile: fork/join of 2 costs 10 µs spinning and 100 µs blocking; no release latency.
rtpar::OverheadProfile sw_profile() {
  rtpar::OverheadProfile p;
  for (const WaitKind w : {WaitKind::spin, WaitKind::block}) {
    p.release.push_back(sw_cost(1, w, 0));
    p.release.push_back(sw_cost(2, w, 0));
  }
  p.fork_join = {sw_cost(2, WaitKind::spin, 10'000), sw_cost(2, WaitKind::block, 100'000)};
  return p;
}

// sw_set: `a` (1 ms every 5 ms, one strand: one core, CPU 0, placed first by deadline) and `b`
// (two strands of 5 ms, T = 20 ms, D = `b_deadline`: one core would take 10 ms, so it needs both,
// and CPU 0 holds a). Both spin.
rtpar::TaskSet sw_set(std::optional<WaitKind> shared, rtpar::Duration b_deadline) {
  rtpar::TaskSet set;
  set.source = "<shared wait>";
  set.system.cores = {0, 1};
  set.system.planner = rtpar::PlannerKind::fork_join_rta;
  set.system.shared_wait = shared;
  set.tasks.push_back(rtpar::testing::fj_task("a", 5ms, {{1, 1ms, {}}}, rtpar::WaitPolicy::spin()));
  rtpar::TaskSpec b = rtpar::testing::fj_task("b", 20ms, {{2, 5ms, {}}}, rtpar::WaitPolicy::spin());
  b.deadline = b_deadline;
  set.tasks.push_back(std::move(b));
  rtpar::validate_taskset(set);
  return set;
}

rtpar::Plan sw_plan(const rtpar::TaskSet& set) {
  static const rtpar::OverheadProfile profile = sw_profile();
  rtpar::PlanOptions options;
  options.overhead = &profile;
  return rtpar::plan_with(set.system.planner, set, options);
}

bool sw_noted(const rtpar::Plan& p, const std::string& text) {
  return std::any_of(p.notes.begin(), p.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("shared_wait: a task sharing a core is charged the shared policy, boundary exact") {
  // b on CPUs {0, 1}, its strand on CPU 0 below a (1 ms every 5 ms):
  //   spin:  w = 5 ms + 10 µs + ⌈w/5 ms⌉·1 ms → 7.01 ms;
  //   block: w = 5 ms + 100 µs + ⌈w/5 ms⌉·1 ms → 7.1 ms.
  const rtpar::Plan spin = sw_plan(sw_set(std::nullopt, 7100us));
  REQUIRE(spin.schedulable);
  CHECK(spin.tasks[1].response_bound_ns == 7'010'000);
  CHECK_FALSE(spin.tasks[1].wait.has_value());

  const rtpar::Plan block = sw_plan(sw_set(WaitKind::block, 7100us));
  REQUIRE(block.schedulable);
  CHECK(block.tasks[1].response_bound_ns == 7'100'000);
  REQUIRE(block.tasks[1].wait.has_value());
  CHECK(*block.tasks[1].wait == WaitKind::block);
  CHECK(sw_noted(block,
                 "b: shares a core with a task placed before it, so it is charged and run "
                 "with wait = block instead of spin"));
  CHECK(sw_noted(block, "fork/join 100us"));
  // a was placed first, on a core of its own: it keeps its policy.
  CHECK_FALSE(block.tasks[0].wait.has_value());
  CHECK(rtpar::planned_wait(sw_set(WaitKind::block, 7100us).tasks[1], block.tasks[1]).kind ==
        WaitKind::block);

  // One nanosecond less: refused when blocking, still admitted when spinning.
  CHECK_FALSE(sw_plan(sw_set(WaitKind::block, 7'099'999ns)).schedulable);
  CHECK(sw_plan(sw_set(std::nullopt, 7'099'999ns)).schedulable);
}

TEST_CASE("shared_wait: no switch on cores of its own, or to the task's own policy") {
  // b alone gets both cores and shares neither: spin's 5.01 ms, no note.
  rtpar::TaskSet alone = sw_set(WaitKind::block, 7100us);
  alone.tasks.erase(alone.tasks.begin());
  const rtpar::Plan p = sw_plan(alone);
  REQUIRE(p.schedulable);
  CHECK(p.tasks[0].response_bound_ns == 5'010'000);
  CHECK_FALSE(p.tasks[0].wait.has_value());
  CHECK_FALSE(sw_noted(p, "shares a core"));
  // shared_wait equal to the task's own policy changes nothing.
  const rtpar::Plan same = sw_plan(sw_set(WaitKind::spin, 7100us));
  CHECK(same.tasks[1].response_bound_ns == 7'010'000);
  CHECK_FALSE(same.tasks[1].wait.has_value());
}

TEST_CASE("shared_wait: another planner ignores it and says so") {
  rtpar::TaskSet set = sw_set(WaitKind::block, 7100us);
  set.system.planner = rtpar::PlannerKind::decomposition;
  const rtpar::Plan p = rtpar::plan_with(set.system.planner, set);
  CHECK(sw_noted(p, "[system] shared_wait is read by fork-join-rta only"));
  for (const rtpar::TaskPlan& tp : p.tasks) CHECK_FALSE(tp.wait.has_value());
}

TEST_CASE("shared_wait: the simulator charges the planned policy, up to the bound") {
  // Synchronous release is b's critical instant and the simulation is exact here: its largest
  // response is the bound under either policy, so it follows TaskPlan::wait.
  static const rtpar::OverheadProfile profile = sw_profile();
  for (const auto& [shared, bound] : std::vector<std::pair<std::optional<WaitKind>, std::int64_t>>{
           {std::nullopt, 7'010'000}, {WaitKind::block, 7'100'000}}) {
    CAPTURE(bound);
    const rtpar::TaskSet set = sw_set(shared, 7100us);
    const rtpar::Plan plan = sw_plan(set);
    REQUIRE(plan.schedulable);
    rtpar::SimOptions o;
    o.overhead = &profile;
    o.horizon_ns = 100'000'000;
    const rtpar::SimResult r = rtpar::simulate_plan(plan, set, o);
    REQUIRE(r.tasks[1].max_response_ns.has_value());
    CHECK(*r.tasks[1].max_response_ns == bound);
    CHECK(r.tasks[1].misses == 0);
  }
}
