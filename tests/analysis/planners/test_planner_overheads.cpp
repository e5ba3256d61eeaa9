// test_planner_overheads.cpp — the overhead profile's charges in every planner (`--overhead`,
// docs/analysis.md "Overhead profiles"): hand-computed task sets admitted at the exact boundary
// and rejected one nanosecond past it, the notes that state the charges, and profiles that cannot
// bound a charge refused as input errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"

using namespace std::chrono_literals;
using rtpar::Duration;
using rtpar::SegmentSpec;

namespace {

rtpar::ForkJoinCost cost(int threads, std::int64_t p999) {
  rtpar::ForkJoinCost c;
  c.threads = threads;
  c.wait = rtpar::WaitKind::hybrid;
  c.p999_ns = p999;
  c.max_ns = p999;
  return c;
}

rtpar::TaskSpec segmented(const std::string& name, Duration period,
                          std::vector<SegmentSpec> segments) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = period;
  t.deadline = period;
  t.wait.kind = rtpar::WaitKind::hybrid;
  t.segments = std::move(segments);
  for (const SegmentSpec& s : t.segments) {
    t.work += s.length * s.strands;
    t.span += s.length;
  }
  return t;
}

rtpar::TaskSpec plain(const std::string& name, Duration period, Duration work, Duration span) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = period;
  t.deadline = period;
  t.wait.kind = rtpar::WaitKind::hybrid;
  t.work = work;
  t.span = span;
  return t;
}

rtpar::TaskSet on_cores(std::vector<int> cores, rtpar::TaskSpec task) {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = std::move(cores);
  set.tasks.push_back(std::move(task));
  return set;
}

rtpar::Plan plan(rtpar::PlannerKind kind, const rtpar::TaskSet& set,
                 const rtpar::OverheadProfile& profile) {
  rtpar::PlanOptions options;
  options.overhead = &profile;
  return rtpar::plan_with(kind, set, options);
}

bool noted(const rtpar::Plan& p, const std::string& text) {
  for (const std::string& n : p.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("federated: release + one fork/join per parallel segment on C and L, boundary exact") {
  // demo.toml's vision: C = 21 ms, L = 6 ms, D = T = 20 ms, one parallel segment; 2 cores.
  // Charged x = release(2) + 1 · fork(2): n = ⌈(C − L)/(D − L − x)⌉ = ⌈15/(14 − x)⌉ ≤ 2 iff
  // x ≤ 6.5 ms; then R = L + x + ⌈15/2⌉ = 13.5 ms + x = 20 ms = D.
  const rtpar::TaskSet set =
      on_cores({0, 1}, segmented("vision", 20ms, {{1, 1500us, {}}, {6, 3ms, {}}, {1, 1500us, {}}}));
  REQUIRE(rtpar::plan_with(rtpar::PlannerKind::federated, set).schedulable);
  rtpar::OverheadProfile profile;
  profile.source = "prof.json";
  profile.release = {cost(1, 100'000), cost(2, 500'000)};
  profile.fork_join = {cost(2, 6'000'000)};
  const rtpar::Plan at = plan(rtpar::PlannerKind::federated, set, profile);
  REQUIRE(at.schedulable);
  CHECK(at.tasks[0].cores_needed == 2);
  CHECK(at.tasks[0].response_bound_ns == 20'000'000);
  CHECK(noted(at, "overhead: task 'vision' charged release 500us + 1 fork/join × 6ms = 6.5ms"));
  CHECK(noted(at, "prof.json"));
  profile.fork_join = {cost(2, 6'000'001)};
  const rtpar::Plan past = plan(rtpar::PlannerKind::federated, set, profile);
  CHECK_FALSE(past.schedulable);
  REQUIRE(past.tasks[0].reason);
  CHECK(past.tasks[0].reason->find("needs 3 cores") != std::string::npos);
}

TEST_CASE("federated: a light task is charged its release latency on one core") {
  // C = 9 ms, D = T = 10 ms on one core; release(1) = 1 ms: C + 1 ms = D passes the RTA.
  const rtpar::TaskSet set = on_cores({0}, plain("light", 10ms, 9ms, 9ms));
  rtpar::OverheadProfile profile;
  profile.release = {cost(1, 1'000'000)};
  profile.fork_join = {cost(2, 1)};
  const rtpar::Plan at = plan(rtpar::PlannerKind::federated, set, profile);
  REQUIRE(at.schedulable);
  CHECK(at.tasks[0].response_bound_ns == 10'000'000);
  CHECK(noted(at, "task 'light' charged release 1ms = 1ms"));
  profile.release = {cost(1, 1'000'001)};
  CHECK_FALSE(plan(rtpar::PlannerKind::federated, set, profile).schedulable);
}

TEST_CASE("federated-ws: eq. 3 on the charged C and L, boundary exact") {
  // C = 12 ms, L = 1 ms, D = T = 10 ms, δ = 1.5, no structure (one region per job), 3 cores.
  // Uncharged n = ⌈20.5/8.5⌉ = 3. Charged x on C and L:
  // n = ⌈(20.5 − 0.5x)/(8.5 − 1.5x)⌉ ≤ 3 iff x ≤ 1.25 ms (x = 1.25 ms: 19.875/6.625 = 3).
  rtpar::TaskSet set = on_cores({0, 1, 2}, plain("solver", 10ms, 12ms, 1ms));
  set.system.delta = 1.5;
  REQUIRE(rtpar::plan_with(rtpar::PlannerKind::federated_ws, set).tasks[0].cores_needed == 3);
  rtpar::OverheadProfile profile;
  profile.release = {cost(3, 250'000)};
  profile.fork_join = {cost(3, 1'000'000)};
  const rtpar::Plan at = plan(rtpar::PlannerKind::federated_ws, set, profile);
  REQUIRE(at.schedulable);
  CHECK(at.tasks[0].cores_needed == 3);
  CHECK(noted(at, "charged release 250us + 1 fork/join × 1ms = 1.25ms"));
  profile.release = {cost(3, 250'001)};
  const rtpar::Plan past = plan(rtpar::PlannerKind::federated_ws, set, profile);
  CHECK_FALSE(past.schedulable);
  CHECK(past.tasks[0].cores_needed == 4);
}

TEST_CASE("decomposition: release per segment and barrier per segment boundary, boundary exact") {
  // Two one-strand segments (2 ms, 3 ms), D = T = 10 ms, 2 cores: the team is min(2, 2) = 2.
  // Charged P' = (2 + r) + (3 + r + b) must be ≤ D with r = Λ(1) (each member's own timer) and
  // b = β(2): r = 2 ms, b = 1 ms gives P' = 10 ms = D. Λ(1) comes from the release entry of 2
  // threads (the nearest larger measured size) and the 3 ms release of 3 threads is not charged.
  const rtpar::TaskSet set =
      on_cores({0, 1}, segmented("pipe", 10ms, {{1, 2ms, {}}, {1, 3ms, {}}}));
  rtpar::OverheadProfile profile;
  profile.source = "prof.json";
  profile.release = {cost(2, 2'000'000), cost(3, 3'000'000)};
  profile.fork_join = {cost(2, 1)};
  profile.barrier = {cost(2, 1'000'000)};
  const rtpar::Plan at = plan(rtpar::PlannerKind::decomposition, set, profile);
  REQUIRE(at.schedulable);
  // The plan states the declared lengths (what the kernel runs); the windows hold the charges.
  REQUIRE(at.tasks[0].segments.size() == 2);
  CHECK(at.tasks[0].segments[0].length_ns == 2'000'000);
  CHECK(at.tasks[0].segments[1].length_ns == 3'000'000);
  CHECK(at.tasks[0].segments[0].deadline_ns == 4'000'000);  // e'·D/P' = 4 ms · 10/10
  CHECK(noted(at, "task 'pipe' charged release 2ms on each of its 2 segment(s) + barrier 1ms"));
  profile.barrier = {cost(2, 1'000'001)};
  CHECK_FALSE(plan(rtpar::PlannerKind::decomposition, set, profile).schedulable);
  // A profile written before barriers were measured cannot bound them: refused, naming the field.
  profile.barrier.clear();
  CHECK_THROWS_WITH_AS(plan(rtpar::PlannerKind::decomposition, set, profile),
                       doctest::Contains("prof.json: barrier: cannot bound the barrier cost of "
                                         "task 'pipe' on 2 threads"),
                       rtpar::InputError);
}

TEST_CASE("fork-join-rta: release latency on the first stage's aggregate strands") {
  // One strand of 9 ms, D = T = 10 ms, one core: R = 9 ms + release(1) = 10 ms = D.
  const rtpar::TaskSet set = on_cores({0}, segmented("one", 10ms, {{1, 9ms, {}}}));
  rtpar::OverheadProfile profile;
  profile.release = {cost(1, 1'000'000)};
  profile.fork_join = {cost(2, 1)};
  const rtpar::Plan at = plan(rtpar::PlannerKind::fork_join_rta, set, profile);
  REQUIRE(at.schedulable);
  CHECK(at.tasks[0].response_bound_ns == 10'000'000);
  CHECK(noted(at, "overhead: task 'one' charged release 1ms"));
  profile.release = {cost(1, 1'000'001)};
  CHECK_FALSE(plan(rtpar::PlannerKind::fork_join_rta, set, profile).schedulable);
  // Without release entries for the task's policy the profile is refused.
  profile.release.clear();
  CHECK_THROWS_WITH_AS(plan(rtpar::PlannerKind::fork_join_rta, set, profile),
                       doctest::Contains("release: cannot bound"), rtpar::InputError);
}

TEST_CASE("overhead charges: a larger team is never charged less than a smaller one") {
  // The profile's rule takes the nearest larger measured size, which need not grow: B(2) = 5 µs,
  // B(4) = 1 µs. A task planned for a team of up to 4 is charged max(B(2), B(4)) = 5 µs, so a
  // plan that ends up with fewer cores stays covered.
  rtpar::TaskSet set = on_cores({0, 1, 2, 3}, plain("wide", 10ms, 30ms, 1ms));
  rtpar::OverheadProfile profile;
  profile.release = {cost(4, 0)};
  profile.fork_join = {cost(2, 5'000), cost(4, 1'000)};
  const rtpar::Plan p = plan(rtpar::PlannerKind::federated, set, profile);
  REQUIRE(p.schedulable);
  CHECK(p.tasks[0].cores_needed == 4);  // ⌈(30 − 1)/(10 − 1 − 0.005)⌉ = 4
  CHECK(noted(p, "1 fork/join × 5us"));
}

namespace {

// budgeted_profile is a release latency of 1 ms (one thread) with the budget mechanism's costs:
// budget.job p99.9 = 20 µs, budget.demotion p99.9 = 30 µs.
rtpar::OverheadProfile budgeted_profile() {
  rtpar::OverheadProfile profile;
  profile.release = {cost(1, 1'000'000), cost(2, 1'000'000)};
  profile.fork_join = {cost(2, 1)};
  profile.barrier = {cost(2, 1)};
  rtpar::BudgetCost job;
  job.samples = 5000;
  job.p50_ns = job.p99_ns = job.p999_ns = job.max_ns = 20'000;
  rtpar::BudgetCost demotion = job;
  demotion.p50_ns = demotion.p99_ns = demotion.p999_ns = demotion.max_ns = 30'000;
  profile.budget_job = job;
  profile.budget_demotion = demotion;
  return profile;
}

}  // namespace

TEST_CASE("budget charge: an enforced job may run job + demotion + margin past C, charged") {
  // federated light task C = 8 ms, D = T = 10 ms, one core. Enforced (the default: it may share
  // a core): release 1 ms + budget.job 20 µs + demotion 30 µs + margin 100 µs = 1.15 ms;
  // R = 9.15 ms. The bound is exact: with C = 8.85 ms, R = 10 ms admitted; + 1 ns refused.
  rtpar::TaskSet set = on_cores({0}, plain("light", 10ms, 8ms, 8ms));
  const rtpar::OverheadProfile profile = budgeted_profile();
  rtpar::Plan at = plan(rtpar::PlannerKind::federated, set, profile);
  REQUIRE(at.schedulable);
  CHECK(at.tasks[0].response_bound_ns == 9'150'000);
  CHECK(noted(at, "task 'light' charged release 1ms + budget 150us = 1.15ms"));
  set.tasks[0].work = set.tasks[0].span = 8850us;
  CHECK(plan(rtpar::PlannerKind::federated, set, profile).tasks[0].response_bound_ns == 10'000'000);
  set.tasks[0].work = set.tasks[0].span = Duration(8'850'001);
  CHECK_FALSE(plan(rtpar::PlannerKind::federated, set, profile).schedulable);
  // monitor: only the mechanism's own cost (20 µs); none: nothing; a larger margin counts.
  set.tasks[0].work = set.tasks[0].span = 8ms;
  set.tasks[0].budget = rtpar::BudgetMode::monitor;
  CHECK(plan(rtpar::PlannerKind::federated, set, profile).tasks[0].response_bound_ns == 9'020'000);
  set.tasks[0].budget = rtpar::BudgetMode::none;
  CHECK(plan(rtpar::PlannerKind::federated, set, profile).tasks[0].response_bound_ns == 9'000'000);
  set.tasks[0].budget.reset();
  set.system.budget_margin = 500us;
  CHECK(plan(rtpar::PlannerKind::federated, set, profile).tasks[0].response_bound_ns == 9'550'000);
}

TEST_CASE("budget charge: partitioned and decomposition charge it per budgeted thread") {
  // partitioned, one thread on core 0: R = 2 ms + 1 ms + 150 µs.
  rtpar::TaskSet one = on_cores({0, 1}, plain("p", 10ms, 2ms, 2ms));
  one.tasks[0].places = {0};
  one.tasks[0].priority = 10;
  const rtpar::OverheadProfile profile = budgeted_profile();
  const rtpar::Plan part = plan(rtpar::PlannerKind::partitioned, one, profile);
  REQUIRE(part.schedulable);
  CHECK(part.tasks[0].response_bound_ns == 3'150'000);
  CHECK(noted(part, "+ budget 150us per job"));
  // decomposition, one segment of 2 strands of 3 ms: each strand e + release + budget.
  const rtpar::TaskSet seg =
      on_cores({0, 1}, segmented("s", 20ms, {SegmentSpec{2, Duration(3ms), {}}}));
  const rtpar::Plan dec = plan(rtpar::PlannerKind::decomposition, seg, profile);
  REQUIRE(dec.schedulable);
  CHECK(noted(dec, "charged release 1ms + budget 150us on each of its 1 segment(s)"));
  REQUIRE(dec.tasks[0].response_bound_ns.has_value());
  CHECK(*dec.tasks[0].response_bound_ns >= 4'150'000);
  // A profile without budget costs charges none (as one without `release` charges no release).
  rtpar::OverheadProfile old = profile;
  old.budget_job.reset();
  old.budget_demotion.reset();
  CHECK(plan(rtpar::PlannerKind::partitioned, one, old).tasks[0].response_bound_ns == 3'000'000);
}

TEST_CASE("budget charge: a partitioned team charges each member core one thread's budget") {
  // One segment of 2 strands of 3 ms on a team of 2, places {0, 1}, static priority, D = T: each
  // member's static-blocks share is 3 ms and each member runs its own budget, so each member core
  // is charged release 1 ms (`release` up to 2 threads) + budget 150 µs (job 20 µs + demotion
  // 30 µs + margin 100 µs, enforce) + fork 1 ns + 3 ms: R = 4.150001 ms on idle cores. Exact: with
  // D = T = 4'150'001 ns admitted, 1 ns less refused.
  rtpar::TaskSet set =
      on_cores({0, 1}, segmented("team", 20ms, {SegmentSpec{2, Duration(3ms), {}}}));
  set.tasks[0].places = {0, 1};
  set.tasks[0].priority = 10;
  const rtpar::OverheadProfile profile = budgeted_profile();
  const rtpar::Plan p = plan(rtpar::PlannerKind::partitioned, set, profile);
  REQUIRE(p.schedulable);
  CHECK(p.tasks[0].response_bound_ns == 4'150'001);
  CHECK(noted(p, "+ budget 150us per job"));
  set.tasks[0].period = set.tasks[0].deadline = Duration(4'150'001);
  CHECK(plan(rtpar::PlannerKind::partitioned, set, profile).schedulable);
  set.tasks[0].period = set.tasks[0].deadline = Duration(4'150'000);
  CHECK_FALSE(plan(rtpar::PlannerKind::partitioned, set, profile).schedulable);
  // none: no budget charge (R = 4.000001 ms). A steal pool runs in monitor (StealBudgets): the
  // master's arm and, for its one parallel region, a worker's clock reads: 2 × 20 µs (structure-
  // free there: C + release + fork + 40 µs = 7.040001 ms).
  set.tasks[0].period = set.tasks[0].deadline = 20ms;
  set.tasks[0].budget = rtpar::BudgetMode::none;
  CHECK(plan(rtpar::PlannerKind::partitioned, set, profile).tasks[0].response_bound_ns ==
        4'000'001);
  set.tasks[0].budget.reset();
  set.tasks[0].runtime = rtpar::RuntimeKind::steal;
  CHECK(plan(rtpar::PlannerKind::partitioned, set, profile).tasks[0].response_bound_ns ==
        7'040'001);
  set.tasks[0].budget = rtpar::BudgetMode::none;
  CHECK(plan(rtpar::PlannerKind::partitioned, set, profile).tasks[0].response_bound_ns ==
        7'000'001);
}

TEST_CASE("budget charge: a federated heavy team charges two monitor arms per job") {
  // C = 12 ms, L = 2 ms, D = T = 10 ms on 2 cores: a heavy task whose team runs in monitor (its
  // members have no planned share). The job's path holds the master's arm and one worker's
  // (budget.job 20 µs each): 40 µs, charged with the release as a sequential prefix, so R grows
  // by exactly 40 µs over `none`. An `omp:` kernel's own team is monitored the same way (the
  // OpenMP runtime installs the member hooks on its workers): the same two arms.
  rtpar::TaskSet set = on_cores({0, 1}, plain("wide", 10ms, 12ms, 2ms));
  const rtpar::OverheadProfile profile = budgeted_profile();
  const rtpar::Plan charged = plan(rtpar::PlannerKind::federated, set, profile);
  REQUIRE(charged.schedulable);
  REQUIRE(charged.tasks[0].heavy);
  set.tasks[0].budget = rtpar::BudgetMode::none;
  const rtpar::Plan free = plan(rtpar::PlannerKind::federated, set, profile);
  REQUIRE(free.schedulable);
  CHECK(*charged.tasks[0].response_bound_ns - *free.tasks[0].response_bound_ns == 40'000);
  set.tasks[0].budget.reset();
  set.tasks[0].kernel_spec.source = rtpar::KernelSource::openmp;
  CHECK(plan(rtpar::PlannerKind::federated, set, profile).tasks[0].response_bound_ns ==
        charged.tasks[0].response_bound_ns);
}
