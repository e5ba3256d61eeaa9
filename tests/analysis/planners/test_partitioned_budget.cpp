// test_partitioned_budget.cpp — analysis::member_budgets: each partitioned team member's budget is
// what the partitioned analysis charges a job on its core (docs/reliability.md, "Budgets").
#include <doctest/doctest.h>

#include <vector>

#include "analysis/planners/partitioned_budget.hpp"

using namespace std::chrono_literals;
using rtpar::Duration;

namespace {

rtpar::TaskSpec team_task(rtpar::WaitKind wait) {
  rtpar::TaskSpec t;
  t.name = "t";
  t.period = t.deadline = 20ms;
  t.wait.kind = wait;
  t.wait.spin_ns = Duration(50us);
  return t;
}

}  // namespace

TEST_CASE("member budgets: segments give each member its static-blocks share") {
  // One segment of 3 strands of 2 ms on 2 threads: static blocks give rank 0 two strands (4 ms)
  // and rank 1 one (2 ms); block waiting adds nothing.
  rtpar::TaskSpec t = team_task(rtpar::WaitKind::block);
  t.segments = {rtpar::SegmentSpec{3, Duration(2ms), {}}};
  t.work = 6ms;
  t.span = 2ms;
  const auto b = rtpar::analysis::member_budgets(t, {0, 1});
  REQUIRE(b.has_value());
  CHECK(*b == std::vector<std::int64_t>{4'000'000, 2'000'000});
  // hybrid: + wait_spin (50 µs) per region on every member's core.
  t.wait.kind = rtpar::WaitKind::hybrid;
  CHECK(*rtpar::analysis::member_budgets(t, {0, 1}) ==
        std::vector<std::int64_t>{4'050'000, 2'050'000});
  // spin: a waiting member may spin up to the whole job: D.
  t.wait.kind = rtpar::WaitKind::spin;
  CHECK(*rtpar::analysis::member_budgets(t, {0, 1}) ==
        std::vector<std::int64_t>{20'000'000, 20'000'000});
}

TEST_CASE("member budgets: greedy members are charged the whole work; none when undefined") {
  rtpar::TaskSpec t = team_task(rtpar::WaitKind::block);
  t.work = 6ms;
  t.span = 2ms;
  CHECK(*rtpar::analysis::member_budgets(t, {1, 0}) ==
        std::vector<std::int64_t>{6'000'000, 6'000'000});
  // Two threads on one core: the plan charges the core, not a thread.
  CHECK_FALSE(rtpar::analysis::member_budgets(t, {0, 0}).has_value());
  // One thread, or a steal pool: not a team's budget.
  CHECK_FALSE(rtpar::analysis::member_budgets(t, {0}).has_value());
  t.runtime = rtpar::RuntimeKind::steal;
  CHECK_FALSE(rtpar::analysis::member_budgets(t, {0, 1}).has_value());
}
