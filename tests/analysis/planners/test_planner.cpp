// test_planner.cpp — federated and federated-ws planners (src/analysis), on task sets built in
// code. Every expected number is worked by hand in the comment next to it (docs/analysis.md).
#include <cmath>
#include <cstdint>
#include <numbers>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

using rtpar::Duration;
using rtpar::Plan;
using rtpar::PlannerKind;
using rtpar::TaskPlan;
using rtpar::TaskSet;
using rtpar::TaskSpec;

namespace {

constexpr std::int64_t ms = 1'000'000;

// task builds a TaskSpec from (C, L, D, T) in units of `unit` ns; planning needs no kernel.
TaskSpec task(std::string name, std::int64_t c, std::int64_t l, std::int64_t d, std::int64_t t,
              std::int64_t unit = 1) {
  TaskSpec spec;
  spec.name = std::move(name);
  spec.work = Duration(c * unit);
  spec.span = Duration(l * unit);
  spec.deadline = Duration(d * unit);
  spec.period = Duration(t * unit);
  return spec;
}

// light builds a task with L = C (no parallelism); it is light as long as C ≤ D.
TaskSpec light(std::string name, std::int64_t c, std::int64_t d, std::int64_t t) {
  return task(std::move(name), c, c, d, t);
}

// cores_upto is {0, 1, ..., n−1}.
std::vector<int> cores_upto(int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(i);
  return out;
}

// make_set puts tasks on cores with the given planner and δ.
TaskSet make_set(std::vector<int> cores, std::vector<TaskSpec> tasks,
                 PlannerKind kind = PlannerKind::federated, double delta = 1.5) {
  TaskSet set;
  set.system.cores = std::move(cores);
  set.system.planner = kind;
  set.system.delta = delta;
  set.tasks = std::move(tasks);
  set.source = "<memory>";
  return set;
}

// one plans a single task with the given planner on `cores` cores and returns its TaskPlan.
TaskPlan one(const TaskSpec& spec, PlannerKind kind = PlannerKind::federated, double delta = 1.5,
             int cores = 64) {
  const Plan plan = rtpar::plan_taskset(make_set(cores_upto(cores), {spec}, kind, delta));
  REQUIRE(plan.tasks.size() == 1);
  return plan.tasks[0];
}

// contains says whether text contains part (doctest prints both on failure).
bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// any_note_contains says whether some plan note contains part.
bool any_note_contains(const Plan& plan, const std::string& part) {
  for (const std::string& note : plan.notes) {
    if (contains(note, part)) return true;
  }
  return false;
}

// expected_ws is RTWS §V-B's E[R] bound evaluated directly in double, for comparison.
double expected_ws(double c, double l, double d, double delta, double n) {
  const double spread = delta / std::numbers::ln2;
  return c / n + delta * l + spread * spread / (2.0 * (d - c / n - delta * l));
}

}  // namespace

TEST_CASE("federated: C=14, L=8, D=T=10 needs 3 cores and R <= 10") {
  // n = ceil((14−8)/(10−8)) = 3; R ≤ 8 + ceil(6/3) = 10.
  const Plan plan = rtpar::plan_federated(make_set(cores_upto(4), {task("h", 14, 8, 10, 10)}));
  CHECK(plan.schedulable);
  CHECK(plan.planner == PlannerKind::federated);
  const TaskPlan& h = plan.tasks[0];
  CHECK(h.heavy);
  CHECK(h.cores_needed == 3);
  CHECK(h.cores == std::vector<int>{0, 1, 2});
  CHECK(h.response_bound_ns == 10);
  CHECK_FALSE(h.expected_response_ns.has_value());
  CHECK_FALSE(h.reason.has_value());
  CHECK(h.priority == 90);
  CHECK(h.utilization == doctest::Approx(1.4));
  // The same in milliseconds.
  const TaskPlan hm = one(task("h", 14, 8, 10, 10, ms));
  CHECK(hm.cores_needed == 3);
  CHECK(hm.response_bound_ns == 10 * ms);
}

TEST_CASE("federated: L > D and L == D are rejected with no number of cores") {
  const TaskPlan above = one(task("h", 20, 12, 10, 10));
  CHECK(above.heavy);
  CHECK(above.cores_needed == 0);
  CHECK(above.cores.empty());
  REQUIRE(above.reason.has_value());
  CHECK(contains(*above.reason, "L=12ns is not shorter than D=10ns"));
  CHECK(contains(*above.reason, "no number of cores suffices"));
  const TaskPlan equal = one(task("h", 20, 10, 10, 10));
  CHECK(equal.cores_needed == 0);
  REQUIRE(equal.reason.has_value());
  CHECK(contains(*equal.reason, "L=10ns is not shorter than D=10ns"));
  const Plan plan = rtpar::plan_federated(make_set(cores_upto(8), {task("h", 20, 10, 10, 10)}));
  CHECK_FALSE(plan.schedulable);
  CHECK_FALSE(plan.tasks[0].response_bound_ns.has_value());
}

TEST_CASE("federated: integral and just-above-integral core counts") {
  // (20−4)/(12−4) = 2 exactly → 2 cores, R ≤ 4 + 16/2 = 12 = D.
  const TaskPlan exact = one(task("h", 20, 4, 12, 12));
  CHECK(exact.cores_needed == 2);
  CHECK(exact.response_bound_ns == 12);
  // (21−4)/8 = 2.125 → 3 cores, R ≤ 4 + ceil(17/3) = 10.
  const TaskPlan above = one(task("h", 21, 4, 12, 12));
  CHECK(above.cores_needed == 3);
  CHECK(above.response_bound_ns == 10);
  // Same in ms, plus one nanosecond of work: (16ms+1)/8ms → 3 cores.
  CHECK(one(task("h", 20, 4, 12, 12, ms)).cores_needed == 2);
  TaskSpec plus_one = task("h", 20, 4, 12, 12, ms);
  plus_one.work += Duration(1);
  CHECK(one(plus_one).cores_needed == 3);
}

TEST_CASE("federated: near-2^63 ns values use exact 128-bit arithmetic") {
  // C−L = 9e18−1 and D−L = 4e18: C−L + D−L − 1 overflows int64. n = 3, R ≤ 1 + 3e18.
  const TaskPlan h = one(task("h", 9'000'000'000'000'000'000, 1, 4'000'000'000'000'000'001,
                              9'000'000'000'000'000'000));
  CHECK(h.cores_needed == 3);
  CHECK(h.response_bound_ns == 3'000'000'000'000'000'001);
}

TEST_CASE("federated: the greedy bound is <= D and n is the least count, over a sweep") {
  for (std::int64_t d = 2; d <= 30; ++d) {
    for (std::int64_t l = 1; l < d; ++l) {
      for (std::int64_t c = d + 1; c <= 4 * d; ++c) {
        const TaskPlan h = one(task("h", c, l, d, d), PlannerKind::federated, 1.5, 256);
        const std::int64_t n = h.cores_needed;
        CAPTURE(c);
        CAPTURE(l);
        CAPTURE(d);
        REQUIRE(h.response_bound_ns.has_value());
        CHECK(*h.response_bound_ns <= d);
        CHECK(c - l <= n * (d - l));       // n cores suffice...
        CHECK(c - l > (n - 1) * (d - l));  // ...and n − 1 would not
      }
    }
  }
}

TEST_CASE("federated-ws: (C, L, D, delta) = (100, 10, 50, 2) needs 5 cores") {
  // n = ceil((100 + 50 − 20)/(50 − 20)) = ceil(130/30) = 5.
  // E[R] ≤ 100/5 + 20 + (2/ln 2)²/(2·(50 − 20 − 20)) = 40 + 8.3254/20 = 40.41627...
  const TaskPlan h = one(task("h", 100, 10, 50, 50), PlannerKind::federated_ws, 2.0);
  CHECK(h.heavy);
  CHECK(h.cores_needed == 5);
  CHECK(h.cores.size() == 5);
  CHECK_FALSE(h.response_bound_ns.has_value());
  REQUIRE(h.expected_response_ns.has_value());
  CHECK(*h.expected_response_ns == doctest::Approx(40.416273796).epsilon(1e-9));
  CHECK(*h.expected_response_ns == doctest::Approx(expected_ws(100, 10, 50, 2, 5)));
}

TEST_CASE("federated-ws: D <= delta*L rejected, including the D == delta*L boundary") {
  const TaskPlan below = one(task("h", 100, 30, 50, 50), PlannerKind::federated_ws, 2.0);
  CHECK(below.cores_needed == 0);
  REQUIRE(below.reason.has_value());
  CHECK(contains(*below.reason, "D=50ns is not longer than δ·L=60ns"));
  const TaskPlan equal = one(task("h", 100, 25, 50, 50), PlannerKind::federated_ws, 2.0);
  CHECK(equal.cores_needed == 0);
  REQUIRE(equal.reason.has_value());
  CHECK(contains(*equal.reason, "δ·L=50ns"));
  // δL need not be a whole number of ns; the reason shows it exactly.
  const TaskPlan half = one(task("h", 20, 7, 10, 10), PlannerKind::federated_ws, 1.5);
  REQUIRE(half.reason.has_value());
  CHECK(contains(*half.reason, "D=10ns is not longer than δ·L=10.5ns (δ taken as 1.5)"));
  // δ = 1.5: D == 1.5·100 = 150 is rejected; D = 151 leaves 1 ns: n = ceil((200+1)/1) = 201.
  CHECK(one(task("h", 200, 100, 150, 150), PlannerKind::federated_ws, 1.5).reason.has_value());
  CHECK(one(task("h", 200, 100, 151, 151), PlannerKind::federated_ws, 1.5, 256).cores_needed ==
        201);
  // 1.001 is not a binary fraction: in double, 1001 − 1.001·1000 ≈ 1.1e-13 > 0 and the core count
  // explodes; taken exactly as 1001000/10^6, D == δL and the task is rejected as it should be.
  const TaskPlan inexact = one(task("h", 3003, 1000, 1001, 1001), PlannerKind::federated_ws, 1.001);
  CHECK(inexact.cores_needed == 0);
  CHECK(inexact.reason.has_value());
}

TEST_CASE("federated-ws: delta = 1.5 worked by hand") {
  // C=1001, L=100, D=400: δL = 150, n = ceil((1001 + 400 − 150)/(400 − 150)) = ceil(5.004) = 6.
  // E[R] ≤ 1001/6 + 150 + (1.5/ln 2)²/(2·(400 − 166.8333 − 150)) = 316.8333 + 4.6830/166.3333
  //      = 316.86149 ns.
  const TaskPlan h = one(task("h", 1001, 100, 400, 400), PlannerKind::federated_ws, 1.5);
  CHECK(h.cores_needed == 6);
  REQUIRE(h.expected_response_ns.has_value());
  CHECK(*h.expected_response_ns == doctest::Approx(316.86149).epsilon(1e-7));
  CHECK(*h.expected_response_ns == doctest::Approx(expected_ws(1001, 100, 400, 1.5, 6)));
  // In ms the variance term (~4.7 ns²/ns) becomes negligible: E[R] ≈ 316.8333 ms.
  const TaskPlan hm = one(task("h", 1001, 100, 400, 400, ms), PlannerKind::federated_ws, 1.5);
  CHECK(hm.cores_needed == 6);
  CHECK(*hm.expected_response_ns == doctest::Approx(1001.0 * ms / 6 + 150.0 * ms));
}

TEST_CASE("federated-ws: slack D - C/n - delta*L is positive and >= (D - delta*L)/n") {
  const double delta = 1.5;
  for (std::int64_t d = 20; d <= 60; d += 7) {
    for (std::int64_t l = 1; 3 * l < 2 * d; l += 3) {  // δL < D
      for (std::int64_t c = d + 1; c <= 5 * d; c += 5) {
        const TaskPlan h = one(task("h", c, l, d, d), PlannerKind::federated_ws, delta, 1024);
        CAPTURE(c);
        CAPTURE(l);
        CAPTURE(d);
        REQUIRE(h.expected_response_ns.has_value());
        const double n = h.cores_needed;
        const double slack = static_cast<double>(d) - c / n - delta * l;
        CHECK(slack > 0.0);
        CHECK(slack >= (d - delta * l) / n - 1e-9);
        // The variance term is at most n(δ/ln 2)²/(2(D − δL)). Note it is NOT always below D at
        // nanosecond scale: with D − δL = 4 ns and n ≈ 60 it adds ~35 ns (docs/analysis.md).
        const double spread = delta / std::numbers::ln2;
        const double mean = c / n + delta * l;
        CHECK(*h.expected_response_ns >= mean);
        CHECK(*h.expected_response_ns <=
              mean + n * spread * spread / (2.0 * (d - delta * l)) + 1e-9);
      }
    }
  }
}

TEST_CASE("federated-ws: delta beyond 6 decimals is noted, light tasks get E[R] = R") {
  const Plan plan = rtpar::plan_federated_ws(
      make_set(cores_upto(8), {task("h", 100, 10, 50, 50), light("l", 1, 10, 10)},
               PlannerKind::federated_ws, 1.2345678));
  CHECK(plan.schedulable);
  CHECK(any_note_contains(plan, "as 1.234568"));
  CHECK(any_note_contains(plan, "no hard response bound"));
  CHECK(plan.tasks[1].response_bound_ns == 1);
  CHECK(plan.tasks[1].expected_response_ns == doctest::Approx(1.0));
}

TEST_CASE("plan: heavy and light together, priorities distinct with heavy above light") {
  // h takes cores 0-2 (n = 3); b, a share core 3 and c spills to core 4, as in the test above.
  const Plan plan = rtpar::plan_federated(make_set(
      cores_upto(5),
      {light("a", 4, 10, 10), task("h", 14, 8, 10, 10), light("b", 3, 6, 6), light("c", 2, 8, 8)}));
  CHECK(plan.schedulable);
  CHECK(plan.tasks[1].cores == std::vector<int>{0, 1, 2});
  CHECK(plan.tasks[0].cores == std::vector<int>{3});
  CHECK(plan.tasks[2].cores == std::vector<int>{3});
  CHECK(plan.tasks[3].cores == std::vector<int>{4});
  CHECK(plan.tasks[1].priority == 90);
  CHECK(plan.tasks[2].priority == 89);
  CHECK(plan.tasks[3].priority == 88);
  CHECK(plan.tasks[0].priority == 87);
  std::set<int> distinct;
  for (const TaskPlan& tp : plan.tasks) distinct.insert(tp.priority);
  CHECK(distinct.size() == plan.tasks.size());
}

TEST_CASE("plan: heavy demand beyond the cores is reported per task and in total") {
  // h1: n = 3 → cores 0-2. h2: n = 2 but one core is left. x (light) takes core 3.
  const Plan plan = rtpar::plan_federated(
      make_set(cores_upto(4),
               {task("h1", 14, 8, 10, 10), task("h2", 20, 4, 12, 12), light("x", 1, 10, 10)}));
  CHECK_FALSE(plan.schedulable);
  CHECK(plan.tasks[0].cores == std::vector<int>{0, 1, 2});
  CHECK_FALSE(plan.tasks[0].reason.has_value());
  const TaskPlan& h2 = plan.tasks[1];
  CHECK(h2.cores_needed == 2);
  CHECK(h2.cores.empty());
  CHECK_FALSE(h2.response_bound_ns.has_value());
  REQUIRE(h2.reason.has_value());
  CHECK(*h2.reason ==
        "needs 2 cores; only 1 remain after the heavy tasks listed before it "
        "(total heavy demand 5 of 4 cores)");
  CHECK(plan.tasks[2].cores == std::vector<int>{3});
  CHECK(any_note_contains(plan, "needs 6 real-time cores (heavy 5 + light 1 by first-fit); 4"));
}

TEST_CASE("plan: nonrt_cores are excluded and an empty core set is not schedulable") {
  TaskSet set = make_set({3, 0, 2, 1}, {task("h", 14, 8, 10, 10), light("x", 1, 10, 10)});
  set.system.nonrt_cores = {0};
  const Plan plan = rtpar::plan_taskset(set);
  CHECK(plan.cores == std::vector<int>{1, 2, 3});
  CHECK(plan.tasks[0].cores == std::vector<int>{1, 2, 3});
  CHECK_FALSE(plan.schedulable);  // x: every core went to h
  REQUIRE(plan.tasks[1].reason.has_value());
  CHECK(contains(*plan.tasks[1].reason, "all 3 real-time cores are dedicated to heavy tasks"));

  TaskSet none = make_set({0}, {light("x", 1, 10, 10)});
  none.system.nonrt_cores = {0};
  const Plan empty = rtpar::plan_taskset(none);
  CHECK(empty.cores.empty());
  CHECK_FALSE(empty.schedulable);
  CHECK(any_note_contains(empty, "no real-time cores"));
  REQUIRE(empty.tasks[0].reason.has_value());
  CHECK(contains(*empty.tasks[0].reason, "no real-time cores are available"));
  CHECK(empty.tasks[0].cores_needed == 1);

  none.tasks.clear();
  CHECK_FALSE(rtpar::plan_taskset(none).schedulable);  // no cores at all is never schedulable
}

TEST_CASE("plan: more than 90 tasks fall back to per-core priorities") {
  // 100 light tasks of C=15, D=T=1000 (equal utilization, so first-fit goes by name): 66 fit on
  // core 3 (66·15 = 990 ≤ 1000 < 67·15), 34 go to core 4. The heavy task keeps 90 on cores 0-2;
  // light priorities are 89, 88, ... per core, distinct on each core.
  std::vector<TaskSpec> tasks = {task("h", 14, 8, 10, 10)};
  for (int i = 0; i < 100; ++i) {
    tasks.push_back(
        light("t" + std::string(i < 10 ? "0" : "") + std::to_string(i), 15, 1000, 1000));
  }
  const Plan plan = rtpar::plan_federated(make_set(cores_upto(5), tasks));
  CHECK(plan.schedulable);
  CHECK(any_note_contains(plan, "distinct per core"));
  CHECK(plan.tasks[0].priority == 90);
  std::vector<std::set<int>> per_core(5);
  std::vector<int> count(5, 0);
  for (std::size_t i = 1; i < plan.tasks.size(); ++i) {
    const TaskPlan& tp = plan.tasks[i];
    REQUIRE(tp.cores.size() == 1);
    CHECK(tp.priority < 90);
    per_core[tp.cores[0]].insert(tp.priority);
    ++count[tp.cores[0]];
  }
  CHECK(count[3] == 66);
  CHECK(count[4] == 34);
  CHECK(per_core[3].size() == 66);
  CHECK(per_core[4].size() == 34);
  CHECK(*per_core[3].rbegin() == 89);
  CHECK(*per_core[3].begin() == 89 - 65);
  CHECK(plan.tasks[66].response_bound_ns == 990);  // t65, the lowest on core 3
}

TEST_CASE("plan: over 89 light tasks on one core share the bottom priority, noted") {
  // 100 tasks of C=1 on one core: priorities 89..1 for the first 89 in DM/name order, then 11
  // share priority 1; all still pass (the lowest responds within 100 ≤ 1000).
  std::vector<TaskSpec> tasks;
  for (int i = 0; i < 100; ++i) {
    tasks.push_back(light("t" + std::string(i < 10 ? "0" : "") + std::to_string(i), 1, 1000, 1000));
  }
  const Plan plan = rtpar::plan_federated(make_set({0}, tasks));
  CHECK(plan.schedulable);
  CHECK(any_note_contains(plan, "share priority 1"));
  CHECK(plan.tasks[0].priority == 89);
  CHECK(plan.tasks[88].priority == 1);
  CHECK(plan.tasks[99].priority == 1);
  CHECK(plan.tasks[99].response_bound_ns == 100);
}

TEST_CASE("plan: dispatch, light boundary C == D, and invalid parameters") {
  const Plan ws = rtpar::plan_taskset(
      make_set(cores_upto(8), {task("h", 100, 10, 50, 50)}, PlannerKind::federated_ws, 2.0));
  CHECK(ws.planner == PlannerKind::federated_ws);
  CHECK(ws.tasks[0].cores_needed == 5);
  const Plan fed = rtpar::plan_taskset(make_set(cores_upto(8), {task("h", 100, 10, 50, 50)}));
  CHECK(fed.planner == PlannerKind::federated);
  CHECK(fed.tasks[0].cores_needed == 3);  // ceil(90/40)

  const TaskPlan boundary = one(task("x", 10, 4, 10, 20));
  CHECK_FALSE(boundary.heavy);  // C == D is still sequential
  CHECK(boundary.response_bound_ns == 10);

  TaskSet bad = make_set({0}, {light("x", 1, 10, 10), task("y", 1, 1, 20, 10)});
  try {
    (void)rtpar::plan_taskset(bad);
    FAIL("expected InputError");
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == "task[1].deadline");
  }
  bad.tasks[1] = task("y", 2, 3, 10, 10);
  CHECK_THROWS_AS((void)rtpar::plan_taskset(bad), rtpar::InputError);
  bad.tasks[1] = task("y", 2, 1, 10, 10);
  bad.system.planner = PlannerKind::federated_ws;
  bad.system.delta = std::nan("");
  CHECK_THROWS_AS((void)rtpar::plan_taskset(bad), rtpar::InputError);
}
