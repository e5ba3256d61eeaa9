// test_edf_blocking.cpp — the EDF demand test with non-preemptive sections
// (src/analysis/bounds/edf_blocking.hpp: h(t) + B(t) ≤ t, B(t) = max{b_j : D_j > t}), on
// hand-worked sets and against the plain demand test.
#include <doctest/doctest.h>

#include <vector>

#include "analysis/bounds/edf_blocking.hpp"

using rtpar::analysis::blocking_at;
using rtpar::analysis::DemandBlocker;
using rtpar::analysis::DemandTask;
using rtpar::analysis::edf_demand_test;
using rtpar::analysis::edf_demand_test_blocking;
using rtpar::analysis::kBlockerAlways;

TEST_CASE("edf blocking: B(t) counts only the sections of tasks with D > t") {
  const std::vector<DemandBlocker> b{{3, 5}, {7, 20}, {2, kBlockerAlways}};
  CHECK(blocking_at(b, 4) == 7);
  CHECK(blocking_at(b, 19) == 7);
  CHECK(blocking_at(b, 20) == 2);  // D = 20 is not > 20
  CHECK(blocking_at(b, 1'000'000) == 2);
  CHECK(blocking_at({}, 0) == 0);
}

TEST_CASE("edf blocking: a section of the long task delays the short one by hand") {
  // A: C = 2, D = 5, T = 10; B: C = 3, D = 20, T = 20, whose section is b.
  // b = 3: L = 3 + 2 + 3 = 8 (closes), t = 5: h = 2, B(5) = 3 → 5 ≤ 5: schedulable (boundary).
  // b = 4: t = 5: 2 + 4 = 6 > 5 → fails at t = 5.
  const std::vector<DemandTask> tasks{{2, 5, 10}, {3, 20, 20}};
  CHECK(edf_demand_test(tasks).schedulable);
  CHECK(edf_demand_test_blocking(tasks, {{3, 20}}).schedulable);
  const auto v = edf_demand_test_blocking(tasks, {{4, 20}});
  CHECK_FALSE(v.schedulable);
  REQUIRE(v.failing_t.has_value());
  CHECK(*v.failing_t == 5);
  // The same section in a task outside the band (it blocks at every t) gives the same verdicts.
  CHECK(edf_demand_test_blocking(tasks, {{3, kBlockerAlways}}).schedulable);
  CHECK_FALSE(edf_demand_test_blocking(tasks, {{4, kBlockerAlways}}).schedulable);
}

TEST_CASE("edf blocking: a section of a shorter-deadline task does not block longer windows") {
  // A: C = 3, D = 5, T = 10, section 1; B: C = 2, D = 3, T = 10, section 2.
  // t = 3: h = 2, B(3) = 1 (A's, D = 5 > 3) → 3 ≤ 3. t = 5: h = 5, B(5) = 0 (B's D = 3 ≤ 5)
  // → 5 ≤ 5. Schedulable; charging max b = 2 at every t would fail at t = 5 (7 > 5).
  const std::vector<DemandTask> tasks{{3, 5, 10}, {2, 3, 10}};
  CHECK(edf_demand_test_blocking(tasks, {{1, 5}, {2, 3}}).schedulable);
  CHECK_FALSE(edf_demand_test_blocking(tasks, {{2, kBlockerAlways}}).schedulable);
}

TEST_CASE("edf blocking: no section is the plain test; U = 1 with a section is refused") {
  const std::vector<DemandTask> full{{5, 10, 10}, {10, 20, 20}};  // U = 1, implicit deadlines
  CHECK(edf_demand_test_blocking(full, {}).schedulable);
  CHECK(edf_demand_test_blocking(full, {{0, 10}}).schedulable);
  const auto v = edf_demand_test_blocking(full, {{1, kBlockerAlways}});
  CHECK_FALSE(v.schedulable);  // the busy period never closes: pessimistic, never optimistic
  CHECK_FALSE(edf_demand_test_blocking({{6, 10, 10}, {5, 10, 10}}, {{1, 10}}).schedulable);
  CHECK(edf_demand_test_blocking({}, {{5, 10}}).schedulable);  // nothing to delay
}

TEST_CASE(
    "edf blocking: agrees with the plain test when every section is zero-length, and is "
    "never looser than the plain test on random sets") {
  // Deterministic LCG draws: 400 sets of 2–5 tasks, sections up to 30 % of the smallest C.
  std::uint64_t x = 12345;
  const auto draw = [&](std::int64_t lo, std::int64_t hi) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + static_cast<std::int64_t>((x >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
  };
  int agreed = 0, tighter = 0;
  for (int k = 0; k < 400; ++k) {
    std::vector<DemandTask> tasks;
    std::vector<DemandBlocker> none, some;
    const int n = static_cast<int>(draw(2, 5));
    for (int i = 0; i < n; ++i) {
      const std::int64_t t = draw(10, 100);
      const std::int64_t d = draw(t / 2, t);
      const std::int64_t c = draw(1, std::max<std::int64_t>(1, d / n));
      tasks.push_back({c, d, t});
      none.push_back({0, d});
      some.push_back({draw(0, std::max<std::int64_t>(1, c * 3 / 10)), d});
    }
    const bool plain = edf_demand_test(tasks).schedulable;
    CHECK(edf_demand_test_blocking(tasks, none).schedulable == plain);
    const bool blocked = edf_demand_test_blocking(tasks, some).schedulable;
    CHECK((!blocked || plain));  // blocking can only remove sets
    agreed += plain ? 1 : 0;
    tighter += (plain && !blocked) ? 1 : 0;
  }
  MESSAGE(agreed << " sets schedulable without sections, " << tighter << " refused with them");
  CHECK(agreed > 50);
}
