// test_decomposition_force.cpp — plan_decomposition with PlanOptions::force_place (issue 36 item
// 3): a set FBB-FFD refuses is placed anyway, the refusal is kept (schedulable false, the task's
// reason, no response bound) and the plan says force_placed; an admitted set is planned exactly
// as without the option. Worked by hand on three sequential tasks on two cores.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/bounds/fbb_ffd.hpp"
#include "analysis/bounds/priorities.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"

using namespace std::chrono_literals;

namespace {

// sequential is a one-strand task with D = T = 10 ms and C = L = work.
rtpar::TaskSpec sequential(const std::string& name, rtpar::Duration work) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = 10ms;
  t.deadline = 10ms;
  t.work = work;
  t.span = work;
  return t;
}

// three_on_two is a (6 ms), b (5 ms), c (4 ms), all T = D = 10 ms, on CPUs {0, 1}. Every task is
// one strand with window d = D = 10 ms (2.5·L ≥ D: the proportional rule, one segment). In
// fbb_order (equal windows: task order) with RBF*_j(d) = W_j + ⌈d·W_j/T_j⌉ (RT-OpenMP §IV-A,
// one release of a one-segment task in a window of d ≤ T):
//   a: both cores empty, load 0 ≤ d − e = 4 ms          -> core 0
//   b: core 0: RBF*_a(10) = 6 + 6 = 12 ms > 10 − 5 = 5   refused; core 1 empty -> core 1
//   c: room 10 − 4 = 6 ms; core 0: 12 ms, core 1: RBF*_b(10) = 5 + 5 = 10 ms: refused on both.
// With force_place c goes, below the task already there, to the first core (fbb_ffd, first_fit:
// core 0) or to the least-loaded one (worst_fit: core 1, 10 < 12 ms).
rtpar::TaskSet three_on_two(rtpar::FitKind fit) {
  rtpar::TaskSet set;
  set.source = "<force>";
  set.system.cores = {0, 1};
  set.system.planner = rtpar::PlannerKind::decomposition;
  set.system.fit = fit;
  set.tasks = {sequential("a", 6ms), sequential("b", 5ms), sequential("c", 4ms)};
  return set;
}

}  // namespace

TEST_CASE("decomposition force_place: the refused strand is placed by the fit's rule") {
  for (const rtpar::FitKind fit :
       {rtpar::FitKind::fbb_ffd, rtpar::FitKind::worst_fit, rtpar::FitKind::first_fit}) {
    CAPTURE(rtpar::to_string(fit));
    const rtpar::TaskSet set = three_on_two(fit);

    // Without the option: c is refused and left unplaced.
    const rtpar::Plan refused = rtpar::plan_decomposition(set, {});
    CHECK_FALSE(refused.schedulable);
    CHECK_FALSE(refused.force_placed);
    REQUIRE(refused.tasks[2].segments.size() == 1);
    CHECK(refused.tasks[2].segments[0].strands[0].core == -1);
    REQUIRE(refused.tasks[2].reason);

    rtpar::PlanOptions options;
    options.force_place = true;
    const rtpar::Plan plan = rtpar::plan_decomposition(set, options);
    CHECK_FALSE(plan.schedulable);  // no admission claim
    CHECK(plan.force_placed);
    // a and b were admitted by the test: placed as without the option, with their bound D.
    CHECK(plan.tasks[0].segments[0].strands[0].core == 0);
    CHECK(plan.tasks[0].segments[0].strands[0].priority == rtpar::analysis::kTopPriority);
    CHECK(plan.tasks[0].response_bound_ns == 10'000'000);
    CHECK_FALSE(plan.tasks[0].reason);
    CHECK(plan.tasks[1].segments[0].strands[0].core == 1);
    CHECK(plan.tasks[1].segments[0].strands[0].priority == rtpar::analysis::kTopPriority);
    CHECK(plan.tasks[1].response_bound_ns == 10'000'000);
    // c: placed on core 0 (first) or 1 (least loaded), one level below the task there, still
    // refused, no bound.
    const int core = fit == rtpar::FitKind::worst_fit ? 1 : 0;
    const rtpar::TaskPlan& c = plan.tasks[2];
    CHECK(c.segments[0].strands[0].core == core);
    CHECK(c.segments[0].strands[0].priority == rtpar::analysis::kTopPriority - 1);
    CHECK(c.cores == std::vector<int>{core});
    CHECK(c.cores_needed == 1);
    CHECK_FALSE(c.response_bound_ns);
    REQUIRE(c.reason);
    // The refusal's own words first, then what force_place did.
    CHECK(c.reason->rfind(*refused.tasks[2].reason, 0) == 0);
    CHECK(c.reason->find(core == 1 ? "1 of them placed anyway (force_place: the least-loaded"
                                   : "1 of them placed anyway (force_place: the first core") !=
          std::string::npos);
    for (const rtpar::TaskPlan& t : plan.tasks) CHECK(t.segments[0].strands[0].core >= 0);
    bool noted = false;
    for (const std::string& n : plan.notes) noted = noted || n.find("force_place") == 0;
    CHECK(noted);
  }
}

TEST_CASE("decomposition force_place: a force-placed set is judged by execution") {
  // Core 1 runs b (5 ms, priority 90) and c (4 ms, 89) every 10 ms: 9 ms of work, so c completes
  // at 9 ms ≤ D in every period; the set the test refused does not miss. With c at 6 ms the core
  // holds 11 ms per 10 ms and c misses.
  rtpar::PlanOptions options;
  options.force_place = true;
  rtpar::TaskSet set = three_on_two(rtpar::FitKind::worst_fit);
  rtpar::SimOptions sim;
  sim.horizon_ns = 100'000'000;
  const rtpar::SimResult fits =
      rtpar::simulate_plan(rtpar::plan_decomposition(set, options), set, sim);
  CHECK_FALSE(fits.plan_schedulable);
  CHECK(fits.plan_force_placed);
  CHECK(fits.misses == 0);
  for (const rtpar::SimTaskResult& t : fits.tasks) CHECK(t.simulated);
  REQUIRE(fits.tasks[2].max_response_ns);
  CHECK(*fits.tasks[2].max_response_ns == 9'000'000);

  set.tasks[2] = sequential("c", 6ms);
  const rtpar::SimResult over =
      rtpar::simulate_plan(rtpar::plan_decomposition(set, options), set, sim);
  CHECK(over.plan_force_placed);
  CHECK(over.tasks[2].misses > 0);
}

TEST_CASE("decomposition force_place: an admitted set is planned exactly as without it") {
  rtpar::TaskSet set = three_on_two(rtpar::FitKind::fbb_ffd);
  set.tasks.pop_back();  // a and b alone are admitted
  rtpar::PlanOptions options;
  options.force_place = true;
  const rtpar::Plan plain = rtpar::plan_decomposition(set, {});
  const rtpar::Plan forced = rtpar::plan_decomposition(set, options);
  CHECK(plain.schedulable);
  CHECK(forced.schedulable);
  CHECK_FALSE(forced.force_placed);
  CHECK(forced.notes == plain.notes);
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    CHECK(forced.tasks[i].segments[0].strands[0].core ==
          plain.tasks[i].segments[0].strands[0].core);
    CHECK(forced.tasks[i].response_bound_ns == plain.tasks[i].response_bound_ns);
  }
}

TEST_CASE("fbb_place force: forced strands are flagged; none without a free level") {
  // Two strands of 6 ms in windows of 10 ms (T = 10 ms) of two tasks on one core: the second is
  // refused (RBF*_0(10 ms) = 6 + ⌈10·6/10⌉ = 12 ms > 10 − 6 = 4 ms). With one priority level the
  // core has no room for a second segment: even force leaves it unplaced.
  const std::vector<rtpar::analysis::FbbStrand> strands = {
      {0, 0, 6'000'000, 0, 10'000'000, 10'000'000}, {1, 0, 6'000'000, 0, 10'000'000, 10'000'000}};
  const auto plain = rtpar::analysis::fbb_place(strands, 1, rtpar::FitKind::fbb_ffd);
  CHECK(plain.core == std::vector<int>{0, -1});
  CHECK(plain.forced == std::vector<bool>{false, false});
  const auto forced = rtpar::analysis::fbb_place(
      strands, 1, rtpar::FitKind::fbb_ffd, rtpar::analysis::kPriorityLevels, std::nullopt, true);
  CHECK(forced.core == std::vector<int>{0, 0});
  CHECK(forced.forced == std::vector<bool>{false, true});
  CHECK(forced.priority ==
        std::vector<int>{rtpar::analysis::kTopPriority, rtpar::analysis::kTopPriority - 1});
  const auto one_level =
      rtpar::analysis::fbb_place(strands, 1, rtpar::FitKind::fbb_ffd, 1, std::nullopt, true);
  CHECK(one_level.core == std::vector<int>{0, -1});
  CHECK(one_level.forced == std::vector<bool>{false, false});
}
