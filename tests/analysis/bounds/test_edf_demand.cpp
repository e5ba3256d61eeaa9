// test_edf_demand.cpp — the EDF processor-demand test with QPA (analysis/edf_demand.hpp): worked
// examples, boundaries, and QPA against the full check of h(t) ≤ t at every absolute deadline.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "analysis/bounds/edf_demand.hpp"

using rtpar::analysis::demand_bound;
using rtpar::analysis::DemandTask;
using rtpar::analysis::edf_demand_test;

namespace {

// full_demand_check is the processor-demand criterion without QPA: U ≤ 1 (exactly, by
// cross-multiplying over the hyperperiod H) and h(d) ≤ d at every absolute deadline d ≤ H + D_max
// (Baruah, Rosier & Howell 1990: for synchronous release, checking one hyperperiod past D_max is
// enough). Small integer sets only.
bool full_demand_check(const std::vector<DemandTask>& tasks) {
  std::int64_t hyper = 1;
  std::int64_t d_max = 0;
  for (const DemandTask& t : tasks) {
    hyper = std::lcm(hyper, t.period);
    d_max = std::max(d_max, t.deadline);
  }
  std::int64_t work = 0;  // U·H
  for (const DemandTask& t : tasks) work += t.wcet * (hyper / t.period);
  if (work > hyper) return false;
  for (const DemandTask& t : tasks) {
    for (std::int64_t d = t.deadline; d <= hyper + d_max; d += t.period) {
      if (demand_bound(tasks, d) > d) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("edf demand: worked examples") {
  // U = 2/4 + 3/6 = 1 exactly, implicit deadlines: EDF-schedulable (Liu & Layland 1973, Thm 7).
  CHECK(edf_demand_test({{2, 4, 4}, {3, 6, 6}}).schedulable);
  // U = 2/4 + 4/6 = 7/6 > 1: rejected before any demand is computed.
  const auto over = edf_demand_test({{2, 4, 4}, {4, 6, 6}});
  CHECK_FALSE(over.schedulable);
  CHECK(over.reason.find("utilization") != std::string::npos);
  // U = 2/8 + 2/8 + 2/8 = 0.75 ≤ 1, but two tasks have D = 2:
  //   h(2) = 2 + 2 = 4 > 2, so the set fails exactly at t = 2 (the only deadline where h(t) > t:
  //   h(8) = 2 + 2 + 2 = 6 ≤ 8, h(10) = 4 + 4 + 2 = 10 ≤ 10).
  const std::vector<DemandTask> tight = {{2, 2, 8}, {2, 2, 8}, {2, 8, 8}};
  const auto v = edf_demand_test(tight);
  CHECK_FALSE(v.schedulable);
  REQUIRE(v.failing_t);
  CHECK(*v.failing_t == 2);
  CHECK(demand_bound(tight, 2) == 4);
  // Constrained deadlines, U = 1/4 + 2/6 + 4/12 = 11/12, D = (3, 4, 10):
  //   h(3) = 1, h(4) = 3, h(7) = 4, h(9) = 4 (no new deadline), h(10) = 2·1 + 2·2 + 4 = 10 ≤ 10,
  //   h(11) = 3 + 4 + 4 = 11 ≤ 11, later deadlines have slack: schedulable with zero slack at 10.
  const std::vector<DemandTask> zero_slack = {{1, 3, 4}, {2, 4, 6}, {4, 10, 12}};
  CHECK(demand_bound(zero_slack, 10) == 10);
  CHECK(demand_bound(zero_slack, 11) == 11);
  CHECK(edf_demand_test(zero_slack).schedulable);
  // One more unit of C_3 (U = 1 exactly, still passes the utilization test) makes h(10) = 11 > 10.
  const std::vector<DemandTask> broken = {{1, 3, 4}, {2, 4, 6}, {5, 10, 12}};
  const auto b = edf_demand_test(broken);
  CHECK_FALSE(b.schedulable);
  REQUIRE(b.failing_t);
  CHECK(demand_bound(broken, *b.failing_t) > *b.failing_t);
}

TEST_CASE("edf demand: boundaries") {
  CHECK(edf_demand_test({{5, 5, 10}}).schedulable);                    // D = C alone
  CHECK_FALSE(edf_demand_test({{5, 5, 10}, {1, 5, 10}}).schedulable);  // h(5) = 6
  CHECK(edf_demand_test({{10, 10, 10}}).schedulable);                  // U = 1, D = C = T
  CHECK(edf_demand_test({}).schedulable);                              // nothing to run
  CHECK(edf_demand_test({{0, 1, 1}, {1, 1, 1}}).schedulable);          // C = 0 adds no demand
  CHECK_THROWS(edf_demand_test({{1, 11, 10}}));                        // D > T: not constrained
  CHECK_THROWS(edf_demand_test({{1, 0, 10}}));                         // D = 0
  CHECK_THROWS(edf_demand_test({{-1, 5, 10}}));                        // C < 0
  // Large values: 128-bit demand, no overflow (three tasks with T ≈ 2^61).
  const std::int64_t big = std::int64_t{1} << 61;
  CHECK(edf_demand_test({{big / 4, big / 2, big}, {big / 4, big / 2, big}, {big / 2, big, big}})
            .schedulable);
  // h(2^60) = 2^59 + 1 + 2^59 > 2^60.
  CHECK_FALSE(edf_demand_test({{big / 4 + 1, big / 2, big}, {big / 4, big / 2, big}}).schedulable);
}

TEST_CASE("edf demand: QPA agrees with the full demand check at every deadline") {
  std::mt19937 rng(5);
  const std::int64_t periods[] = {3, 4, 5, 6, 8, 9, 10, 12, 15};
  int schedulable = 0;
  for (int round = 0; round < 600; ++round) {
    std::vector<DemandTask> tasks;
    const int n = 1 + static_cast<int>(rng() % 5);
    for (int i = 0; i < n; ++i) {
      const std::int64_t t = periods[rng() % 9];
      const std::int64_t d = 1 + static_cast<std::int64_t>(rng() % static_cast<unsigned>(t));
      const std::int64_t c = static_cast<std::int64_t>(rng() % static_cast<unsigned>(d + 1));
      tasks.push_back(DemandTask{c, d, t});
    }
    CAPTURE(round);
    const auto v = edf_demand_test(tasks);
    CHECK(v.schedulable == full_demand_check(tasks));
    if (v.failing_t) CHECK(demand_bound(tasks, *v.failing_t) > *v.failing_t);
    schedulable += v.schedulable ? 1 : 0;
  }
  // Both outcomes occur, so the comparison is not vacuous.
  CHECK(schedulable > 50);
  CHECK(schedulable < 550);
}

TEST_CASE("edf demand: implicit deadlines with U = 1 and a huge hyperperiod are decided by U") {
  // A fully used core and a task with a 10^6 times longer period: U = 1 exactly, hyperperiod
  // ~10^15 ns. Liu & Layland (1973, Thm 7): schedulable, without a busy-period search.
  const std::int64_t t = 999'983;  // prime, so the hyperperiod is the product
  CHECK(edf_demand_test({{t / 2, t, t}, {(t - t / 2) * 1'000'003, t * 1'000'003, t * 1'000'003}})
            .schedulable);
  // U just above 1 is refused exactly.
  CHECK_FALSE(
      edf_demand_test({{t / 2 + 1, t, t}, {(t - t / 2) * 1'000'003, t * 1'000'003, t * 1'000'003}})
          .schedulable);
}

TEST_CASE("edf demand: a loop that reaches its iteration cap refuses with the cap reason") {
  // U = 1 with constrained deadlines: the busy period (12) takes 3 steps; with a cap of 2 there
  // is no bound on the test interval, so the verdict is "not schedulable", capped.
  const std::vector<DemandTask> tasks = {{2, 3, 4}, {3, 5, 6}};
  const auto uncapped = edf_demand_test(tasks);
  CHECK_FALSE(uncapped.capped);
  const auto v = edf_demand_test(tasks, 2);
  CHECK_FALSE(v.schedulable);
  CHECK(v.capped);
  CHECK(v.reason == rtpar::analysis::kDemandCapReason);
}

TEST_CASE("edf demand: the exact utilization sum never overflows __int128 (UBSan)") {
  // Two coprime periods near 10^12 ns make the reduced denominator q ≈ 2^80, still below the
  // 2^100 limit; q · T for a third period near 2^62 is ≈ 2^142 and overflowed __int128 before the
  // limit was checked. Now it is detected and the long-double fallback decides (U ≈ 2·10^−9).
  const std::vector<DemandTask> tasks = {{1'000, 1'000'000'000'039, 1'000'000'000'039},
                                         {1'000, 1'000'000'000'061, 1'000'000'000'061},
                                         {1'000, 4'611'686'018'427'387'903, 4'611'686'018'427'387'903}};
  CHECK(edf_demand_test(tasks).schedulable);
  // Same shape, but the long task takes more than the rest of the processor: rejected.
  const std::vector<DemandTask> full = {{500'000'000'000, 1'000'000'000'039, 1'000'000'000'039},
                                        {500'000'000'000, 1'000'000'000'061, 1'000'000'000'061},
                                        {4'611'686'018'427'387'903, 4'611'686'018'427'387'903,
                                         4'611'686'018'427'387'903}};
  CHECK_FALSE(edf_demand_test(full).schedulable);
}
