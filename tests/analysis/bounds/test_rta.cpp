// test_rta.cpp — exact fixed-priority response-time analysis on one core
// (src/analysis/bounds/rta.hpp).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "analysis/bounds/rta.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

using rtpar::Duration;
using rtpar::Plan;
using rtpar::TaskPlan;
using rtpar::TaskSet;
using rtpar::TaskSpec;
using rtpar::analysis::all_schedulable;
using rtpar::analysis::response_time;
using rtpar::analysis::response_times;
using rtpar::analysis::RtaTask;

namespace {

// implicit builds an implicit-deadline task (D = T) scaled by `unit` nanoseconds.
RtaTask implicit(std::int64_t c, std::int64_t t, int priority, std::int64_t unit = 1) {
  return {Duration(c * unit), Duration(t * unit), Duration(t * unit), priority};
}

// textbook is the classic vector (C,T) = (1,4),(1,5),(3,9),(3,18), deadline-monotonic priorities.
std::vector<RtaTask> textbook(std::int64_t unit, std::int64_t last_wcet = 3) {
  return {implicit(1, 4, 4, unit), implicit(1, 5, 3, unit), implicit(3, 9, 2, unit),
          implicit(last_wcet, 18, 1, unit)};
}

// light builds a sequential task (L = C) with deadline d and period t, in ns.
TaskSpec light(std::string name, std::int64_t c, std::int64_t d, std::int64_t t) {
  TaskSpec spec;
  spec.name = std::move(name);
  spec.work = spec.span = Duration(c);
  spec.deadline = Duration(d);
  spec.period = Duration(t);
  return spec;
}

// on_cores is a federated task set of `tasks` on the given CPU ids.
TaskSet on_cores(std::vector<int> cores, std::vector<TaskSpec> tasks) {
  TaskSet set;
  set.system.cores = std::move(cores);
  set.tasks = std::move(tasks);
  return set;
}

// has_note says whether some plan note contains part.
bool has_note(const Plan& plan, const std::string& part) {
  for (const std::string& note : plan.notes) {
    if (note.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("rta: textbook vector gives responses 1, 2, 7, 18") {
  // Hand iteration of the lowest-priority task: 3 → 8 → 10 → 14 → 16 → 17 → 18 → 18 (= D).
  const auto r = response_times(textbook(1));
  REQUIRE(r.size() == 4);
  CHECK(r[0] == Duration(1));
  CHECK(r[1] == Duration(2));
  CHECK(r[2] == Duration(7));
  CHECK(r[3] == Duration(18));
  CHECK(all_schedulable(r));
}

TEST_CASE("rta: textbook vector with C4 = 4 misses (4 → 9 → 12 → 16 → 18 → 19 > 18)") {
  const auto r = response_times(textbook(1, 4));
  CHECK(r[0] == Duration(1));
  CHECK(r[1] == Duration(2));
  CHECK(r[2] == Duration(7));
  CHECK_FALSE(r[3].has_value());
  CHECK_FALSE(all_schedulable(r));
}

TEST_CASE("rta: milliseconds scale exactly (the formula is scale invariant)") {
  constexpr std::int64_t ms = 1'000'000;
  const auto r = response_times(textbook(ms));
  CHECK(r[0] == Duration(1 * ms));
  CHECK(r[1] == Duration(2 * ms));
  CHECK(r[2] == Duration(7 * ms));
  CHECK(r[3] == Duration(18 * ms));
  CHECK_FALSE(response_times(textbook(ms, 4))[3].has_value());
}

TEST_CASE("rta: values near 2^63 ns take the 128-bit path") {
  // ceil(R/T) evaluates R + T − 1 ≈ 1.7e19, which overflows int64.
  constexpr std::int64_t big = 9'000'000'000'000'000'000;
  constexpr std::int64_t four = 4'000'000'000'000'000'000;
  const std::vector<RtaTask> ok = {{Duration(four), Duration(big), Duration(big), 2},
                                   {Duration(four), Duration(big), Duration(big), 1}};
  CHECK(response_time(ok, 1) == Duration(2 * four));
  constexpr std::int64_t five = 5'000'000'000'000'000'000;
  const std::vector<RtaTask> late = {{Duration(five), Duration(big), Duration(big), 2},
                                     {Duration(five), Duration(big), Duration(big), 1}};
  CHECK(response_time(late, 0) == Duration(five));
  CHECK_FALSE(response_time(late, 1).has_value());  // 1e19 > D: stopped before overflowing
}

TEST_CASE("rta: equal priorities interfere both ways, lower priorities not at all") {
  const std::vector<RtaTask> equal = {implicit(2, 10, 5), implicit(3, 10, 5)};
  CHECK(response_time(equal, 0) == Duration(5));
  CHECK(response_time(equal, 1) == Duration(5));
  const std::vector<RtaTask> ordered = {implicit(2, 10, 5), implicit(3, 10, 4)};
  CHECK(response_time(ordered, 0) == Duration(2));
  CHECK(response_time(ordered, 1) == Duration(5));
}

TEST_CASE("rta: constrained deadline, C > D alone, and invalid input") {
  // D < T: (C,T,D) = (2,10,3) above (2,20,3): the second waits for the first and misses.
  const std::vector<RtaTask> constrained = {{Duration(2), Duration(10), Duration(3), 2},
                                            {Duration(2), Duration(20), Duration(3), 1}};
  CHECK(response_time(constrained, 0) == Duration(2));
  CHECK_FALSE(response_time(constrained, 1).has_value());
  CHECK_FALSE(response_time({{Duration(5), Duration(10), Duration(4), 1}}, 0).has_value());
  CHECK_THROWS_AS(response_time({{Duration(1), Duration(10), Duration(11), 1}}, 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(response_time({{Duration(1), Duration(0), Duration(0), 1}}, 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(response_time({implicit(1, 4, 1)}, 1), std::invalid_argument);
}

// The two tests below exercise the RTA as first-fit's admission test inside the planner.

TEST_CASE("plan: light first-fit spills the third task onto a second core") {
  // By utilization: b (3/6 = .5), a (4/10 = .4), c (2/8 = .25). DM priorities: b, c, a.
  //  b → core 0 (R = 3).  a → core 0: R = 4 → 7 → 10 (≤ 10).
  //  c → core 0 would make a: 4 → 9 → 14 > 10, so c → core 1 (R = 2).
  const auto tasks =
      std::vector<TaskSpec>{light("a", 4, 10, 10), light("b", 3, 6, 6), light("c", 2, 8, 8)};
  const Plan plan = rtpar::plan_federated(on_cores({0, 1}, tasks));
  CHECK(plan.schedulable);
  REQUIRE(plan.tasks.size() == 3);
  CHECK(plan.tasks[0].name == "a");  // TaskSet order
  CHECK(plan.tasks[0].cores == std::vector<int>{0});
  CHECK(plan.tasks[0].response_bound_ns == 10);
  CHECK(plan.tasks[1].cores == std::vector<int>{0});
  CHECK(plan.tasks[1].response_bound_ns == 3);
  CHECK(plan.tasks[2].cores == std::vector<int>{1});
  CHECK(plan.tasks[2].response_bound_ns == 2);
  CHECK(plan.tasks[1].priority == 90);  // b: D = 6
  CHECK(plan.tasks[2].priority == 89);  // c: D = 8
  CHECK(plan.tasks[0].priority == 88);  // a: D = 10
  for (const TaskPlan& tp : plan.tasks) {
    CHECK_FALSE(tp.heavy);
    CHECK(tp.cores_needed == 1);
  }

  // On one core c fits nowhere: one more core is needed.
  const Plan short_plan = rtpar::plan_federated(on_cores({0}, tasks));
  CHECK_FALSE(short_plan.schedulable);
  REQUIRE(short_plan.tasks[2].reason.has_value());
  CHECK(short_plan.tasks[2].reason->find("no remaining core admits it") == 0);
  CHECK(short_plan.tasks[2].reason->find("one more core would be needed") != std::string::npos);
  CHECK(short_plan.tasks[2].cores_needed == 1);
  CHECK(short_plan.tasks[2].cores.empty());
  CHECK(has_note(short_plan, "needs 2 real-time cores (heavy 0 + light 2"));
}

TEST_CASE("plan: a priority override changes the RTA and the placement") {
  // a (u .4) is forced to 95, above b: b on core 0 would then respond 3 + 4 = 7 > 6, so a goes
  // to core 1; c (computed 89, below b at 90) joins b on core 0 with R = 2 + 3 = 5 ≤ 8.
  auto tasks =
      std::vector<TaskSpec>{light("a", 4, 10, 10), light("b", 3, 6, 6), light("c", 2, 8, 8)};
  tasks[0].priority = 95;
  const Plan plan = rtpar::plan_federated(on_cores({0, 1}, tasks));
  CHECK(plan.schedulable);
  CHECK(plan.tasks[0].priority == 95);
  CHECK(plan.tasks[1].priority == 90);
  CHECK(plan.tasks[2].priority == 89);
  CHECK(plan.tasks[0].cores == std::vector<int>{1});
  CHECK(plan.tasks[1].cores == std::vector<int>{0});
  CHECK(plan.tasks[2].cores == std::vector<int>{0});
  CHECK(plan.tasks[2].response_bound_ns == 5);

  // Two overrides sharing a core and a value: noted, and analysed as mutual interference.
  auto same = std::vector<TaskSpec>{light("p", 2, 10, 10), light("q", 3, 10, 10)};
  same[0].priority = 50;
  same[1].priority = 50;
  const Plan shared = rtpar::plan_federated(on_cores({0}, same));
  CHECK(shared.schedulable);
  CHECK(shared.tasks[0].response_bound_ns == 5);
  CHECK(shared.tasks[1].response_bound_ns == 5);
  CHECK(has_note(shared, "core 0: p, q share priority 50"));
}

TEST_CASE("rta: U_hp = 1 has no fixed point and is refused without iterating") {
  // A fully used core (C = T) and a task with a 10^9 times longer deadline: the plain iteration
  // would take ~10^9 steps (then stop at the cap); U_hp ≥ 1 decides it at once, as missed.
  const std::vector<RtaTask> core = {implicit(1'000'000, 1'000'000, 2),
                                     implicit(1, 1'000'000'000'000'000, 1)};
  const auto r = rtpar::analysis::response_time_result(core, 1);
  CHECK(r.status == rtpar::analysis::RtaStatus::missed);
  CHECK(response_time(core, 0) == Duration(1'000'000));
}

TEST_CASE("rta: the iteration stops at kRtaIterationCap with status capped") {
  // U_hp = 1 − 1e-7 (too close to 1 for the linear start value): each step adds one job of the
  // interferer, and D = 1.5·10^13 ns is passed only after ~1.5·10^6 steps.
  using rtpar::analysis::fixed_point_response;
  using rtpar::analysis::RtaStatus;
  const std::vector<rtpar::analysis::RtaInterferer> hp = {{9'999'999, 10'000'000}};
  const auto capped = fixed_point_response(2'000'000, 15'000'000'000'000, 2'000'000, hp);
  CHECK(capped.status == RtaStatus::capped);
  // The same task with a short C settles well inside the cap: 1000 steps to R = 10^10 − 1000.
  const auto met = fixed_point_response(1'000, 15'000'000'000'000, 1'000, hp);
  REQUIRE(met.status == RtaStatus::met);
  CHECK(met.response == Duration(10'000'000'000 - 1'000 + 1'000));
  const std::vector<RtaTask> core = {
      {Duration(9'999'999), Duration(10'000'000), Duration(10'000'000), 2},
      {Duration(2'000'000), Duration(100'000'000'000'000), Duration(15'000'000'000'000), 1}};
  CHECK(rtpar::analysis::response_time_result(core, 1).status == RtaStatus::capped);
  CHECK_FALSE(response_time(core, 1).has_value());
}

TEST_CASE("rta: the start value never passes the least fixed point") {
  // rta_start (C/(1 − U_hp) and C + ΣC_j) against the plain iteration from C on random sets.
  std::uint64_t seed = 88172645463325252ULL;
  const auto next = [&seed](std::uint64_t k) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed % k;
  };
  int met = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<RtaTask> core;
    const std::size_t n = 2 + next(6);
    for (std::size_t k = 0; k < n; ++k) {
      const auto t = static_cast<std::int64_t>(50 + next(2000));
      const auto c = static_cast<std::int64_t>(1 + next(static_cast<std::uint64_t>(t) / n));
      core.push_back({Duration(c), Duration(t), Duration(t), static_cast<int>(n - k)});
    }
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<rtpar::analysis::RtaInterferer> hp;
      for (std::size_t j = 0; j < i; ++j)
        hp.push_back({core[j].wcet.count(), core[j].period.count()});
      const std::int64_t c = core[i].wcet.count();
      const std::int64_t d = core[i].deadline.count();
      const auto plain = rtpar::analysis::fixed_point_response(c, d, c, hp);
      CAPTURE(round);
      CHECK(rtpar::analysis::rta_start(c, hp) <=
            (plain.status == rtpar::analysis::RtaStatus::met ? plain.response.count() : INT64_MAX));
      const auto fast = rtpar::analysis::response_time_result(core, i);
      CHECK(fast.status == plain.status);
      if (plain.status == rtpar::analysis::RtaStatus::met) {
        CHECK(fast.response == plain.response);
        ++met;
      }
    }
  }
  CHECK(met > 200);
}
