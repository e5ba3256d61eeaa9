// test_partitioned.cpp — plan_partitioned (docs/analysis/partitioned.md): worked examples, the
// places/threads rules, the starvation warning, and a randomized cross-check of the planner's
// per-core verdicts against brute-force uniprocessor simulation. (QPA itself: test_edf_demand.cpp.)
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "analysis/bounds/edf_demand.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/planners.hpp"

using namespace std::chrono_literals;
using rtpar::analysis::DemandTask;

namespace {

// simulate_misses runs synchronous periodic jobs of `tasks` on one core, preemptive, in unit
// steps over two hyperperiods, and says whether a job misses. EDF orders by absolute deadline
// (ties: lower index); fixed priority by `priority` (larger first; ties: lower index).
bool simulate_misses(const std::vector<DemandTask>& tasks, bool edf,
                     const std::vector<int>& priority = {}) {
  std::int64_t hyper = 1;
  for (const DemandTask& t : tasks) hyper = std::lcm(hyper, t.period);
  struct Job {
    std::int64_t left = 0;
    std::int64_t deadline = 0;
  };
  std::vector<std::vector<Job>> pending(tasks.size());
  for (std::int64_t now = 0; now < 2 * hyper; ++now) {
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      if (now % tasks[i].period == 0)
        pending[i].push_back(Job{tasks[i].wcet, now + tasks[i].deadline});
      for (const Job& j : pending[i]) {
        if (j.left > 0 && now >= j.deadline) return true;
      }
      pending[i].erase(std::remove_if(pending[i].begin(), pending[i].end(),
                                      [](const Job& j) { return j.left == 0; }),
                       pending[i].end());
    }
    int best = -1;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      if (pending[i].empty()) continue;
      if (best < 0) {
        best = static_cast<int>(i);
        continue;
      }
      const auto b = static_cast<std::size_t>(best);
      const bool better = edf ? pending[i].front().deadline < pending[b].front().deadline
                              : priority[i] > priority[b];
      if (better) best = static_cast<int>(i);
    }
    if (best >= 0) --pending[static_cast<std::size_t>(best)].front().left;
  }
  return false;
}

rtpar::TaskSpec part_task(const std::string& name, rtpar::Duration period, rtpar::Duration work,
                          std::vector<int> places) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = period;
  t.deadline = period;
  t.work = work;
  t.span = work;
  t.places = std::move(places);
  return t;
}

}  // namespace

TEST_CASE("partitioned: single-core verdicts agree with brute-force simulation (EDF and FP)") {
  // All tasks on place {0}: EDF (no priorities) is decided by QPA, FP (distinct deadline-monotonic
  // priorities) by the RTA branch of the response bound. Both are exact for synchronous periodic
  // release with constrained deadlines, so plan.schedulable ⇔ no miss in the simulation.
  std::mt19937 rng(20261122);
  const std::int64_t periods[] = {4, 5, 6, 8, 10, 12};
  int edf_ok = 0;
  int fp_ok = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<DemandTask> tasks;
    const int n = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      const std::int64_t t = periods[rng() % 6];
      const std::int64_t d = 1 + static_cast<std::int64_t>(rng() % static_cast<unsigned>(t));
      const std::int64_t c = 1 + static_cast<std::int64_t>(rng() % static_cast<unsigned>(d));
      tasks.push_back(DemandTask{c, d, t});
    }
    CAPTURE(round);
    std::vector<int> order(tasks.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return tasks[a].deadline < tasks[b].deadline; });
    std::vector<int> prio(tasks.size());
    for (std::size_t r = 0; r < order.size(); ++r) prio[order[r]] = 60 - static_cast<int>(r);

    rtpar::TaskSet set;
    set.source = "<test>";
    set.system.cores = {0, 1};
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      rtpar::TaskSpec t =
          part_task("t" + std::to_string(i), std::chrono::milliseconds(tasks[i].period),
                    std::chrono::milliseconds(tasks[i].wcet), {0});
      t.deadline = std::chrono::milliseconds(tasks[i].deadline);
      set.tasks.push_back(t);
    }
    const bool edf = rtpar::plan_with(rtpar::PlannerKind::partitioned, set).schedulable;
    CHECK(edf == !simulate_misses(tasks, /*edf=*/true));
    for (std::size_t i = 0; i < tasks.size(); ++i) set.tasks[i].priority = prio[i];
    const bool fp = rtpar::plan_with(rtpar::PlannerKind::partitioned, set).schedulable;
    CHECK(fp == !simulate_misses(tasks, /*edf=*/false, prio));
    edf_ok += edf ? 1 : 0;
    fp_ok += fp ? 1 : 0;
  }
  // Both verdicts occur for both policies, and EDF (optimal on one core) admits at least as many.
  CHECK(fp_ok > 30);
  CHECK(edf_ok < 270);
  CHECK(edf_ok >= fp_ok);
}

TEST_CASE("partitioned: EDF per core (exact) and fixed priority with the EDF band above it") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1, 2};
  set.system.nonrt_cores = {2};
  set.tasks.push_back(part_task("a", 4ms, 2ms, {0}));
  set.tasks.push_back(part_task("b", 6ms, 3ms, {0}));  // U on core 0 = 1 exactly: EDF OK
  set.tasks.push_back(part_task("c", 10ms, 4ms, {1}));
  set.tasks[2].priority = 20;
  set.tasks.push_back(part_task("d", 10ms, 3ms, {1}));
  set.tasks[3].priority = 30;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK(plan.schedulable);
  CHECK(plan.tasks[0].scheduling == rtpar::CoreScheduling::edf);
  CHECK(plan.tasks[0].response_bound_ns == 4'000'000);  // = D under the exact demand test
  CHECK(plan.tasks[2].scheduling == rtpar::CoreScheduling::fixed_priority);
  CHECK(plan.tasks[3].response_bound_ns == 3'000'000);  // highest static priority on core 1
  CHECK(plan.tasks[2].response_bound_ns == 7'000'000);  // 4 + 3
  // Pushing core 0 over U = 1 fails the demand test for both EDF tasks there.
  set.tasks[1].work = set.tasks[1].span = 3100us;
  const rtpar::Plan over = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(over.schedulable);
  CHECK(over.tasks[0].reason);
  CHECK(over.tasks[1].reason);
  CHECK_FALSE(over.tasks[2].reason);
  // An EDF task on core 1 sits above the static band: c now sees 3 + 2 ms of interference.
  set.tasks[1].work = set.tasks[1].span = 3ms;
  set.tasks.push_back(part_task("e", 10ms, 2ms, {1}));
  const rtpar::Plan band = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK(band.tasks[2].response_bound_ns == 9'000'000);  // 4 + 3 + 2
}

TEST_CASE("partitioned: places errors, threads round-robin, multi-core bound, starvation note") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1, 2};
  set.system.nonrt_cores = {2};
  set.tasks.push_back(part_task("none", 10ms, 1ms, {}));
  set.tasks.push_back(part_task("reserved", 10ms, 1ms, {2}));
  set.tasks.push_back(part_task("absent", 10ms, 1ms, {7}));
  const rtpar::Plan bad = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(bad.schedulable);
  CHECK(bad.tasks[0].reason->find("places") != std::string::npos);
  CHECK(bad.tasks[1].reason->find("non-real-time") != std::string::npos);
  CHECK(bad.tasks[2].reason->find("not one of") != std::string::npos);

  set.tasks.clear();
  // A team of 3 threads on places {0, 1}: thread cores 0, 1, 0. Priority 50, C = 4 ms, L = 2 ms.
  set.tasks.push_back(part_task("team", 20ms, 4ms, {0, 1}));
  set.tasks[0].span = 2ms;
  set.tasks[0].threads = 3;
  set.tasks[0].priority = 50;
  // Same priority, overlapping places: the OpenMP-RT pool-starvation warning.
  set.tasks.push_back(part_task("peer", 20ms, 1ms, {1}));
  set.tasks[1].priority = 50;
  set.tasks[1].threads = 2;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK(plan.schedulable);
  CHECK(plan.tasks[0].thread_cores == std::vector<int>{0, 1, 0});
  CHECK(plan.tasks[0].cores == std::vector<int>{0, 1});
  // team spans cores, so peer's execution on core 1 in an arbitrary window is bounded by
  // Bertogna & Cirinei's carry-in workload W(x) = N·C + min(C, x + D − C − N·T),
  // N = ⌊(x + D − C)/T⌋, with C = 1, D = T = 20 (ms):
  //   R = 4 + W(4) = 4 + (1 + min(1, 23 − 20)) = 6;  R = 4 + W(6) = 4 + 2 = 6 ms.
  CHECK(plan.tasks[0].response_bound_ns == 6'000'000);
  // peer: R = 1 + W_team(R) with c = C + 50 µs = 4.05 ms, D = T = 20 (team's work may be on any
  // of its cores, and a waiting member spins up to wait_spin = 50 µs after its one region):
  //   W(1) = min(4.05, 16.95) = 4.05 → R = 5.05; W(5.05) = 4.05 + min(4.05, 1.0) = 5.05 → 6.05;
  //   … W(x) = x until x = 8.1; W(8.1) = 4.05 + min(4.05, 4.05) = 8.1 → R = 9.1;
  //   W(9.1) = 4.05 + min(4.05, 5.05) = 8.1 → R = 9.1 ms (fixed point).
  CHECK(plan.tasks[1].response_bound_ns == 9'100'000);
  bool warned = false;
  for (const std::string& note : plan.notes) {
    warned = warned || (note.find("'team' and 'peer'") != std::string::npos &&
                        note.find("§3.2") != std::string::npos);
  }
  CHECK(warned);
}

TEST_CASE("partitioned: EDF task spanning cores, equal priorities, no real-time cores") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  // wide: EDF on {0, 1}, C = 2, D = T = 10 (ms); a: EDF on {0}, C = 3, D = T = 5. Core 0's EDF
  // band holds a task spanning cores, so both get the sufficient bound, not QPA.
  set.tasks.push_back(part_task("wide", 10ms, 2ms, {0, 1}));
  set.tasks.push_back(part_task("a", 5ms, 3ms, {0}));
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK(plan.schedulable);
  // wide (spans cores): a's carry-in workload, C = 3, D = T = 5, capped by ⌈10/5⌉·3 = 6:
  //   R = 2 + W(2) = 2 + min(3, 4) = 5; W(5) = 3 + min(3, 2) = 5 → 7; W(7) = 3 + 3 = 6 → 8;
  //   W(8) = 6 → R = 8 ms.
  CHECK(plan.tasks[0].response_bound_ns == 8'000'000);
  // a: wide's workload W(3) = 2 + min(2, 1) = 3 would give R = 6 > 5, but only wide's jobs with
  // deadlines in (r_a, r_a + 5] run before a: ⌈5/10⌉ = 1 job, so W ≤ 2 and R = 3 + 2 = 5 ms.
  CHECK(plan.tasks[1].response_bound_ns == 5'000'000);

  // Equal static priorities on one core interfere both ways (SCHED_FIFO queue order):
  // R = 2 + ⌈R/4⌉·2 = 4 = D for each.
  set.tasks = {part_task("p", 4ms, 2ms, {1}), part_task("q", 4ms, 2ms, {1})};
  set.tasks[0].priority = set.tasks[1].priority = 10;
  const rtpar::Plan equal = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK(equal.schedulable);
  CHECK(equal.tasks[0].response_bound_ns == 4'000'000);
  CHECK(equal.tasks[1].response_bound_ns == 4'000'000);
  set.tasks[1].work = set.tasks[1].span = 2001us;  // one more µs: both exceed D
  const rtpar::Plan over = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(over.schedulable);
  CHECK(over.tasks[0].reason->find("exceeds the deadline") != std::string::npos);

  // No real-time cores left: every place is rejected with the (empty) core list in the reason.
  set.system.cores = {};
  const rtpar::Plan none = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(none.schedulable);
  CHECK(none.tasks[0].reason->find("not one of the real-time cores []") != std::string::npos);
}
