// test_fork_join_worst_fit.cpp — fork-join-rta with PlanOptions::assign = worst_fit (FJOS
// §VIII-A "Naive", decision F11; src/analysis/planners/worst_fit_assign.hpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace {

rtpar::PlanOptions worst_fit() {
  rtpar::PlanOptions o;
  o.assign = rtpar::AssignKind::worst_fit;
  return o;
}

// pair_set: "hi" (T = D = 9 ms, one stage of 2 strands × 2 ms) and "lo" (T = D = lo_period, one
// strand of 8 ms) on cores 0 and 1.
rtpar::TaskSet pair_set(const std::string& lo_period) {
  return rtpar::parse_taskset(R"(
[system]
cores = [0, 1]
planner = "fork-join-rta"
[[task]]
name = "hi"
period = "9ms"
[[task.segment]]
strands = 2
length = "2ms"
[[task]]
name = "lo"
period = ")" + lo_period + R"("
[[task.segment]]
strands = 1
length = "8ms"
)",
                              "<pair>");
}

std::vector<int> strand_cpus(const rtpar::TaskPlan& t, std::size_t segment) {
  std::vector<int> cpus;
  for (const rtpar::StrandPlan& s : t.segments.at(segment).strands) cpus.push_back(s.core);
  return cpus;
}

}  // namespace

TEST_CASE("fork-join-rta worst-fit: the greedy admits, worst-fit spreads hi and fails lo") {
  // Greedy (FJOS §VII): hi needs N = ⌈4/9⌉ = 1 core: both strands on core 0, R = 4 ms; lo on
  // the emptier core 1 alone, R = 8 ms ≤ 11 ms.
  const rtpar::TaskSet set = pair_set("11ms");
  const rtpar::Plan greedy = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(greedy.schedulable);
  CHECK(greedy.tasks[0].cores == std::vector<int>{0});
  CHECK(*greedy.tasks[0].response_bound_ns == 4'000'000);
  CHECK(greedy.tasks[1].cores == std::vector<int>{1});
  CHECK(*greedy.tasks[1].response_bound_ns == 8'000'000);

  // Worst-fit: hi's strands go to core 0 then core 1 (both empty, then core 1 is the least
  // utilized); both cores hold 2/9, so lo goes to the lower id, core 0, under hi's 2 ms strand:
  // w = 8 + ⌈w/9⌉·2 → 10 → 12 → 12 = R_lo > D = 11 ms.
  const rtpar::Plan naive = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, worst_fit());
  CHECK_FALSE(naive.schedulable);
  CHECK(strand_cpus(naive.tasks[0], 0) == std::vector<int>{0, 1});
  CHECK(*naive.tasks[0].response_bound_ns == 2'000'000);
  REQUIRE(naive.tasks[1].reason);
  CHECK(naive.tasks[1].reason->find("worst-fit placement on 1 cores fails") != std::string::npos);
  CHECK_FALSE(naive.tasks[1].response_bound_ns);
  bool noted = false;
  for (const std::string& n : naive.notes) noted = noted || n.find("assign = worst-fit") == 0;
  CHECK(noted);
}

TEST_CASE("fork-join-rta worst-fit: R = D passes, one nanosecond less fails") {
  // The same placement; lo's fixed point is exactly 12 ms.
  const rtpar::Plan at =
      rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, pair_set("12ms"), worst_fit());
  REQUIRE(at.schedulable);
  CHECK(strand_cpus(at.tasks[1], 0) == std::vector<int>{0});
  CHECK(*at.tasks[1].response_bound_ns == 12'000'000);
  CHECK(at.tasks[1].segments[0].deadline_ns == 12'000'000);
  const rtpar::Plan below =
      rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, pair_set("11999999ns"), worst_fit());
  CHECK_FALSE(below.schedulable);
  CHECK(below.tasks[1].reason);
}

TEST_CASE("fork-join-rta worst-fit: least-utilized core per strand, ties to the lower id") {
  // One task, stages of 4, 1 and 2 strands on 3 cores. Strands of one task are equal, so each
  // lands on the least-loaded core: 0,1,2,0 | 1 | 2,0 (ties to the lower id at every step).
  const rtpar::TaskSet set = rtpar::parse_taskset(R"(
[system]
cores = [0, 1, 2]
planner = "fork-join-rta"
[[task]]
name = "t"
period = "100ms"
[[task.segment]]
strands = 4
length = "1ms"
[[task.segment]]
strands = 1
length = "1ms"
[[task.segment]]
strands = 2
length = "1ms"
)",
                                                  "<spread>");
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, worst_fit());
  REQUIRE(plan.schedulable);
  CHECK(strand_cpus(plan.tasks[0], 0) == std::vector<int>{0, 1, 2, 0});
  CHECK(strand_cpus(plan.tasks[0], 1) == std::vector<int>{1});
  CHECK(strand_cpus(plan.tasks[0], 2) == std::vector<int>{2, 0});
  CHECK(plan.tasks[0].cores == std::vector<int>{0, 1, 2});
  CHECK(plan.tasks[0].cores_needed == 3);
  // Stage bounds without interference: 2 ms (core 0 runs two strands), then 3 ms, then 4 ms.
  CHECK(plan.tasks[0].segments[0].deadline_ns == 2'000'000);
  CHECK(*plan.tasks[0].response_bound_ns == 4'000'000);
  // The greedy for the same task: N = 1 core suffices (C = 7 ms ≤ 100 ms).
  const rtpar::Plan greedy = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK(greedy.tasks[0].cores == std::vector<int>{0});
}

TEST_CASE(
    "fork-join-rta worst-fit: a failed task leaves its strands; tasks under it on its cores "
    "are not analysed") {
  const char* text = R"(
[system]
cores = [0]
planner = "fork-join-rta"
[[task]]
name = "hi"
period = "5ms"
[[task.segment]]
strands = 1
length = "6ms"
[[task]]
name = "lo"
period = "100ms"
[[task.segment]]
strands = 1
length = "1ms"
)";
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta,
                                            rtpar::parse_taskset(text, "<t>"), worst_fit());
  CHECK_FALSE(plan.schedulable);
  REQUIRE(plan.tasks[0].reason);
  REQUIRE(plan.tasks[1].reason);
  CHECK(plan.tasks[1].reason->find("not analysed") == 0);
  CHECK_FALSE(plan.tasks[1].response_bound_ns);

  // With a second core, lo goes to the empty core 1 and is bounded; the plan still fails.
  std::string two = text;
  two.replace(two.find("cores = [0]"), 11, "cores = [0, 1]");
  const rtpar::Plan spread = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta,
                                              rtpar::parse_taskset(two, "<t2>"), worst_fit());
  CHECK_FALSE(spread.schedulable);
  CHECK(spread.tasks[0].reason);
  CHECK_FALSE(spread.tasks[1].reason);
  CHECK(spread.tasks[1].cores == std::vector<int>{1});
  CHECK(*spread.tasks[1].response_bound_ns == 1'000'000);
}

TEST_CASE("fork-join-rta worst-fit: assign names") {
  CHECK(std::string(rtpar::to_string(rtpar::AssignKind::greedy)) == "greedy");
  CHECK(std::string(rtpar::to_string(rtpar::AssignKind::worst_fit)) == "worst-fit");
}
