// test_partitioned.cpp — EDF processor demand / QPA (edf_demand.hpp) and plan_partitioned,
// with worked examples and a randomized cross-check against brute-force uniprocessor simulation.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "analysis/edf_demand.hpp"
#include "analysis/rta.hpp"
#include "rtpar/plan.hpp"

using namespace std::chrono_literals;
using rtpar::analysis::DemandTask;
using rtpar::analysis::edf_demand_test;

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

TEST_CASE("edf demand: worked examples") {
  // U = 1 exactly with implicit deadlines is EDF-schedulable (Liu & Layland): 2/4 + 3/6.
  CHECK(edf_demand_test({{2, 4, 4}, {3, 6, 6}}).schedulable);
  // U = 1 + ε is not.
  CHECK_FALSE(edf_demand_test({{2, 4, 4}, {4, 6, 6}}).schedulable);
  // U = 0.75 but constrained deadlines: h(2) = 2 + 2 = 4 > 2 — fails at t = 2.
  const auto v = edf_demand_test({{2, 2, 8}, {2, 2, 8}, {2, 8, 8}});
  CHECK_FALSE(v.schedulable);
  REQUIRE(v.failing_t);
  CHECK(rtpar::analysis::demand_bound({{2, 2, 8}, {2, 2, 8}, {2, 8, 8}}, *v.failing_t) >
        *v.failing_t);
  // D = C: a task that needs the whole core for its deadline is schedulable alone.
  CHECK(edf_demand_test({{5, 5, 10}}).schedulable);
  CHECK(edf_demand_test({}).schedulable);
  CHECK_THROWS(edf_demand_test({{1, 11, 10}}));
}

TEST_CASE("edf demand and FP RTA agree with brute-force simulation on random task sets") {
  std::mt19937 rng(20261122);
  const std::int64_t periods[] = {4, 5, 6, 8, 10, 12};
  int checked = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<DemandTask> tasks;
    const int n = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < n; ++i) {
      const std::int64_t t = periods[rng() % 6];
      const std::int64_t d = 1 + static_cast<std::int64_t>(rng() % static_cast<unsigned>(t));
      const std::int64_t c = 1 + static_cast<std::int64_t>(rng() % static_cast<unsigned>(d));
      tasks.push_back(DemandTask{c, d, t});
    }
    CAPTURE(round);
    // EDF: the demand test is exact for synchronous periodic constrained-deadline tasks.
    CHECK(edf_demand_test(tasks).schedulable == !simulate_misses(tasks, /*edf=*/true));
    // FP (deadline-monotonic, distinct priorities): the RTA is exact too.
    std::vector<int> order(tasks.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return tasks[a].deadline < tasks[b].deadline; });
    std::vector<int> prio(tasks.size());
    for (std::size_t r = 0; r < order.size(); ++r) prio[order[r]] = 90 - static_cast<int>(r);
    std::vector<rtpar::analysis::RtaTask> rta;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      rta.push_back({rtpar::Duration(tasks[i].wcet), rtpar::Duration(tasks[i].period),
                     rtpar::Duration(tasks[i].deadline), prio[i]});
    }
    const bool rta_ok = rtpar::analysis::all_schedulable(rtpar::analysis::response_times(rta));
    CHECK(rta_ok == !simulate_misses(tasks, /*edf=*/false, prio));
    ++checked;
  }
  CHECK(checked == 400);
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
  // team: R = C + Σ_k I_k = 4 + ⌈R/20⌉·1 (peer on core 1, single-core: no jitter) = 5 ms.
  CHECK(plan.tasks[0].response_bound_ns == 5'000'000);
  // peer: R = 1 + W_team(R), team spans cores so its jitter is D − C = 16 ms:
  //   R = 1 + ⌈(1 + 16)/20⌉·4 = 5 → 1 + ⌈21/20⌉·4 = 9 → 1 + ⌈25/20⌉·4 = 9 ms.
  CHECK(plan.tasks[1].response_bound_ns == 9'000'000);
  bool warned = false;
  for (const std::string& note : plan.notes) {
    warned = warned || (note.find("'team' and 'peer'") != std::string::npos &&
                        note.find("§3.2") != std::string::npos);
  }
  CHECK(warned);
}
