// test_sensitivity.cpp — analyse_sensitivity (docs/analysis.md "Sensitivity"): the search on
// synthetic predicates (bracket, 0.1 % precision, limits, the grid check of a non-monotone
// predicate), task scaling, and hand-worked partitioned fixed-priority examples on one core.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "analysis/planners/sensitivity.hpp"
#include "analysis/planners/sensitivity_search.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/planners.hpp"

using rtpar::kSensitivityScale;
using rtpar::ScalingMargin;
using rtpar::analysis::search_margin;
using rtpar::analysis::SearchInput;

namespace {

// one_core is issue 32's two-task example on one core, partitioned fixed priority: hi (C = 2 ms,
// T = D = 10 ms, priority 20) above lo (C = `lo_work`, T = D = 20 ms, priority 10).
rtpar::TaskSet one_core(const std::string& lo_work) {
  return rtpar::parse_taskset(R"(
[system]
cores = [0]
planner = "partitioned"

[[task]]
name = "hi"
period = "10ms"
work = "2ms"
priority = 20
places = [0]

[[task]]
name = "lo"
period = "20ms"
work = ")" + lo_work + R"("
priority = 10
places = [0]
)",
                              "<one_core>");
}

// check_critical checks that a margin brackets the exact critical factor `exact` (a ratio
// num/den, in units of ×1): admitted ≤ exact < refused, within 0.1 %.
void check_critical(const ScalingMargin& m, std::int64_t num, std::int64_t den) {
  REQUIRE(m.admitted);
  REQUIRE(m.refused);
  // admitted/10^6 ≤ num/den < refused/10^6, exactly.
  CHECK(static_cast<__int128>(*m.admitted) * den <= static_cast<__int128>(num) * kSensitivityScale);
  CHECK(static_cast<__int128>(*m.refused) * den > static_cast<__int128>(num) * kSensitivityScale);
  CHECK(*m.refused - *m.admitted <= std::max<std::int64_t>(1, *m.admitted / 1000));
}

}  // namespace

TEST_CASE("sensitivity search: a threshold predicate is bracketed to 0.1 %") {
  for (const std::int64_t critical :
       {1'000'000LL, 1'234'567LL, 37'000'000LL, 999'999LL, 5'000LL, 3LL}) {
    const ScalingMargin m =
        search_margin([&](std::int64_t k) { return k <= critical; }, SearchInput{});
    REQUIRE(m.admitted);
    CHECK(*m.admitted <= critical);
    REQUIRE(m.refused);
    CHECK(*m.refused > critical);
    CHECK(*m.refused - *m.admitted <= std::max<std::int64_t>(1, *m.admitted / 1000));
    CHECK_FALSE(m.refused_below);
    CHECK(m.probes < 45);
  }
}

TEST_CASE("sensitivity search: limits and nothing admitted") {
  SearchInput in;
  in.limit = 3 * kSensitivityScale;
  const ScalingMargin always = search_margin([](std::int64_t) { return true; }, in);
  CHECK(always.admitted == 3 * kSensitivityScale);
  CHECK_FALSE(always.refused);
  CHECK(always.limit == 3 * kSensitivityScale);

  // Monotone and refused at ×0.000001: two probes, no factor.
  const ScalingMargin never = search_margin([](std::int64_t) { return false; }, SearchInput{});
  CHECK_FALSE(never.admitted);
  CHECK(never.refused == 1);
  CHECK(never.probes == 2);

  // Not monotone: the halving runs all the way down.
  in = SearchInput{};
  in.monotone = false;
  const ScalingMargin never2 = search_margin([](std::int64_t) { return false; }, in);
  CHECK_FALSE(never2.admitted);
  CHECK(never2.probes > 2);
}

TEST_CASE("sensitivity search: the grid check finds a smaller refused factor") {
  SearchInput in;
  in.monotone = false;
  // Admitted up to ×2 except in [×0.4, ×0.6): a heuristic planner's anomaly.
  auto admits = [](std::int64_t k) { return k <= 2'000'000 && (k < 400'000 || k >= 600'000); };
  const ScalingMargin m = search_margin(admits, in);
  REQUIRE(m.admitted);
  CHECK(*m.admitted <= 2'000'000);
  REQUIRE(m.refused_below);
  CHECK(*m.refused_below >= 400'000);
  CHECK(*m.refused_below < 600'000);
  // The same predicate searched as monotone runs no grid.
  in.monotone = true;
  CHECK_FALSE(search_margin(admits, in).refused_below);
}

TEST_CASE("sensitivity: scaled_task rounds every length up and keeps the structure's sums") {
  rtpar::TaskSpec t;
  t.work = rtpar::Duration(10);
  t.span = rtpar::Duration(3);
  auto s = rtpar::analysis::scaled_task(t, 1'050'000);
  REQUIRE(s);
  CHECK(s->work.count() == 11);  // ⌈10.5⌉
  CHECK(s->span.count() == 4);   // ⌈3.15⌉
  t.segments = {{1, rtpar::Duration(3), {}}, {7, rtpar::Duration(1), {}}};
  s = rtpar::analysis::scaled_task(t, 1'500'000);
  REQUIRE(s);
  CHECK(s->segments[0].length.count() == 5);  // ⌈4.5⌉
  CHECK(s->segments[1].length.count() == 2);  // ⌈1.5⌉
  CHECK(s->work.count() == 5 + 7 * 2);
  CHECK(s->span.count() == 7);
  t.segments.clear();
  t.work = rtpar::Duration(INT64_MAX / 2);
  CHECK_FALSE(rtpar::analysis::scaled_task(t, 3 * kSensitivityScale));
}

TEST_CASE("sensitivity: one core, fixed priority, worked by hand from the RTA") {
  // R_hi = 2s ≤ 10 ms; R_lo = 5 + ⌈R/10⌉·2 ms. Scaling hi by s: lo's fixed point in (10, 20] is
  // 5 + 4s ≤ 20 → s = 15/4. Scaling lo by s: 5s + 4 ≤ 20 → s = 16/5. Both: 5s + 4s ≤ 20 → 20/9.
  const rtpar::Sensitivity s =
      rtpar::analyse_sensitivity(rtpar::PlannerKind::partitioned, one_core("5ms"));
  CHECK(s.admitted);
  CHECK(s.monotone);
  CHECK(s.grid_points == 0);
  REQUIRE(s.tasks.size() == 2);
  check_critical(s.tasks[0].work, 15, 4);
  check_critical(s.tasks[1].work, 16, 5);
  check_critical(s.all, 20, 9);
  // Slack at ×1: R_hi = 2 ms, R_lo = 7 ms.
  CHECK(s.tasks[0].slack_ns == 8'000'000);
  CHECK(s.tasks[1].slack_ns == 13'000'000);
  CHECK(s.tasks[1].response_ratio == doctest::Approx(0.35));
  CHECK(s.tasks[1].work_at_factor_ns <= 16'000'000);
}

TEST_CASE("sensitivity: a set refused at ×1 gets factors below 1") {
  // lo C = 17 ms: R_lo = 17 + 4 = 21 ms > 20. Shrinking hi: 17 + 4s ≤ 20 → 3/4; lo: 17s + 4 ≤ 20
  // → 16/17; both: 21s ≤ 20 → 20/21.
  const rtpar::Sensitivity s =
      rtpar::analyse_sensitivity(rtpar::PlannerKind::partitioned, one_core("17ms"));
  CHECK_FALSE(s.admitted);
  check_critical(s.tasks[0].work, 3, 4);
  check_critical(s.tasks[1].work, 16, 17);
  check_critical(s.all, 20, 21);
  CHECK_FALSE(s.tasks[1].slack_ns);  // lo has no bound at ×1
}

TEST_CASE("sensitivity: not admitted at any factor") {
  rtpar::TaskSet set = one_core("5ms");
  set.tasks[0].places = {1};  // not a real-time core: refused whatever C is
  const rtpar::Sensitivity s = rtpar::analyse_sensitivity(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(s.admitted);
  for (const rtpar::TaskSensitivity& t : s.tasks) CHECK_FALSE(t.work.admitted);
  CHECK_FALSE(s.all.admitted);
}

TEST_CASE("sensitivity: the heuristic planners are flagged and grid-checked") {
  for (const auto planner :
       {rtpar::PlannerKind::federated, rtpar::PlannerKind::federated_ws,
        rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta}) {
    const rtpar::Sensitivity s = rtpar::analyse_sensitivity(planner, one_core("5ms"));
    CHECK_FALSE(s.monotone);
    CHECK(s.monotonicity.find("not monotone") != std::string::npos);
    CHECK(s.grid_points == rtpar::analysis::kSensitivityGridPoints - 1);
  }
}
