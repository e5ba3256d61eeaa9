// test_fork_join_rta_spin.cpp — fork-join-rta charges the gate spin of a task's members (a member
// waiting for the previous stage spins at the task's priority before it sleeps,
// docs/internals/dispatcher.md) as interference on the tasks sharing its cores
// (docs/analysis/fork_join_rta.md, "Waiting members"), on hand-derived vectors.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/bounds/fork_join_stage_rta.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/planners.hpp"
#include "support/fork_join_pair.hpp"

using namespace std::chrono_literals;
using rtpar::analysis::FjStage;
using rtpar::analysis::FjTask;
using rtpar::testing::fj_task;
using rtpar::testing::two_share;

namespace {

bool has_note(const rtpar::Plan& plan, const std::string& part) {
  return std::any_of(plan.notes.begin(), plan.notes.end(),
                     [&part](const std::string& n) { return n.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("fjrta: an interferer's gate spin adds to its strand, at most until its jitter") {
  // hp: T = 10, stage 0 on core 0 (c = 2), stage 1 on core 1 (c = 1) → B_hp = {2, 3}; its member
  // on core 1 spins `spin` before stage 1 (J = B_hp,0 = 2, so at most 2 of it is charged).
  // lp: T = D = 20, core 0: 1, core 1: 3.
  //   core 0: w = 1 + ⌈w/10⌉·2 = 3;  core 1: w = 3 + ⌈(w + 2)/10⌉·(1 + min(spin, 2)).
  for (const auto& [spin, bound] :
       std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 4}, {1, 5}, {2, 6}, {5, 6}}) {
    CAPTURE(spin);
    FjTask hp{10, 10, 20, {FjStage{{{0, 2}}}, FjStage{{{1, 1, spin}}}}, {}};
    // The spin ends when stage 0 completes, before hp's own strand is released: hp's bound is
    // the same whatever it is.
    REQUIRE(rtpar::analysis::fj_analyse(hp, {}) == 3);
    FjTask lp{20, 20, 10, {FjStage{{{0, 1}, {1, 3}}}}, {}};
    CHECK(rtpar::analysis::fj_analyse(lp, {&hp}) == bound);
  }
}

TEST_CASE("fork-join-rta: a hybrid member's gate spin delays the task sharing its core") {
  // block: b on CPU 1, w = 6 + ⌈(w + 1)/4⌉·2 → 14 ms (test_fork_join_rta.cpp), no spin note.
  const rtpar::Plan block =
      rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, two_share(rtpar::WaitPolicy::block()));
  REQUIRE(block.schedulable);
  CHECK(block.tasks[1].response_bound_ns == 14'000'000);
  CHECK_FALSE(has_note(block, "gate waits"));
  // hybrid 50 µs: a's CPU-1 strand costs b 2 ms + min(50 µs, J = 1 ms):
  //   w = 6 + ⌈(w + 1)/4⌉·2.05: 6 → 10.1 → 12.15 → 14.2 → 14.2 ms. a's own bound stays 3 ms.
  rtpar::TaskSet set = two_share(rtpar::WaitPolicy::hybrid(50us));
  const rtpar::Plan hybrid = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(hybrid.schedulable);
  CHECK(hybrid.tasks[0].response_bound_ns == 3'000'000);
  CHECK(hybrid.tasks[1].cores == std::vector<int>{1});
  CHECK(hybrid.tasks[1].response_bound_ns == 14'200'000);
  CHECK(has_note(hybrid, "a: its members' gate waits (wait = hybrid) spin up to 50us"));
  // Boundary: D_b = 14.2 ms passes, 1 ns less does not.
  set.tasks[1].deadline = 14'200'000ns;
  CHECK(rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set).schedulable);
  set.tasks[1].deadline = 14'200'000ns - 1ns;
  CHECK_FALSE(rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set).schedulable);
}

TEST_CASE("fork-join-rta: a spin member waits up to the previous stage's makespan") {
  // spin: the member on CPU 1 spins at most stage 0's makespan, 1 ms (= J): b sees 3 ms per
  // release of a: w = 6 + ⌈(w + 1)/4⌉·3: 6 → 12 → 18 → 21 > 20 ms. b can use one core only
  // (one strand), the least loaded, CPU 1: not schedulable — the 14 ms bound that ignored the
  // spin was not a bound for a spinning a.
  const rtpar::Plan spin =
      rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, two_share(rtpar::WaitPolicy::spin()));
  CHECK_FALSE(spin.schedulable);
  CHECK(spin.tasks[0].response_bound_ns == 3'000'000);
  CHECK(spin.tasks[1].reason);
  CHECK_FALSE(spin.tasks[1].response_bound_ns);
}

TEST_CASE("fork-join-rta: no spin is charged where the previous stage holds no other core") {
  // c: two stages, both on CPU 0 only (1 strand each): its member never waits for another core.
  // d on CPU 1 alone sees nothing of c; on a one-core machine d shares CPU 0 with c and sees c's
  // two strands back to back (one block, test_fork_join_rta.cpp), no spin.
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0};
  set.tasks.push_back(fj_task("c", 4ms, {{1, 1ms, {}}, {1, 1ms, {}}}, rtpar::WaitPolicy::spin()));
  set.tasks.push_back(fj_task("d", 20ms, {{1, 6ms, {}}}, rtpar::WaitPolicy::block()));
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(plan.schedulable);
  // d: w = 6 + ⌈w/4⌉·2 → 10 → 12 → 12 ms.
  CHECK(plan.tasks[1].response_bound_ns == 12'000'000);
  CHECK_FALSE(has_note(plan, "gate waits"));
}
