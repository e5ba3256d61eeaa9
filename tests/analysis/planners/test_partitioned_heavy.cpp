// test_partitioned_heavy.cpp — plan_partitioned's team bound (docs/analysis/partitioned.md, "Team
// tasks on their own threads"): heavy tasks (C > D) admitted on their own cores, worked examples
// computed by hand, the boundaries (equality admits, one ns more rejects), the measured-overhead
// charges and an overflow.
#include <doctest/doctest.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bounds/team_response.hpp"
#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"

using namespace std::chrono_literals;

namespace {

// heavy_task is the worked example's heavy task h: segments 2×4 ms, 1×2 ms, 2×3 ms on places
// {0, 1} (a team of 2, one thread per core): C = 16 ms, L = 9 ms, static-blocks critical length
// 4 + 2 + 3 = 9 ms.
rtpar::TaskSpec heavy_task(rtpar::Duration period, rtpar::Duration deadline) {
  rtpar::TaskSpec t;
  t.name = "h";
  t.period = period;
  t.deadline = deadline;
  t.segments = {rtpar::SegmentSpec{2, 4ms, {}}, rtpar::SegmentSpec{1, 2ms, {}},
                rtpar::SegmentSpec{2, 3ms, {}}};
  t.work = 16ms;
  t.span = 9ms;
  t.places = {0, 1};
  t.priority = 50;
  return t;
}

rtpar::TaskSpec light_task(const std::string& name, rtpar::Duration period, rtpar::Duration work,
                           int core, std::optional<int> priority) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = t.deadline = period;
  t.work = t.span = work;
  t.places = {core};
  t.priority = priority;
  return t;
}

rtpar::TaskSet two_cores() {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  return set;
}

}  // namespace

TEST_CASE("team_response: static-blocks shares, greedy length, per-segment fixed point") {
  CHECK(rtpar::analysis::static_block_count(5, 2, 0) == 3);
  CHECK(rtpar::analysis::static_block_count(5, 2, 1) == 2);
  CHECK(rtpar::analysis::static_block_count(1, 3, 2) == 0);
  const auto shares = rtpar::analysis::segment_shares(heavy_task(10ms, 10ms).segments, 2, 0, 0);
  REQUIRE(shares);
  CHECK(shares->critical == 9'000'000);
  CHECK(shares->thread_work == std::vector<std::int64_t>{9'000'000, 7'000'000});
  CHECK(rtpar::analysis::greedy_length(16, 4, 2) == 10);
  CHECK(rtpar::analysis::greedy_length(17, 4, 2) == 11);  // ⌈13/2⌉ + 4
  // A constant interference of 1 on rank 1 only: 4 + 1, 2, 3 + 1 → 5 + 2 + 4 = 11.
  const rtpar::analysis::RtaResult r = rtpar::analysis::segmented_response(
      *shares, 11'000'000,
      [](std::size_t rank, __int128) { return __int128(rank == 1 ? 1'000'000 : 0); });
  CHECK(r.status == rtpar::analysis::RtaStatus::met);
  CHECK(r.response.count() == 11'000'000);
  CHECK(rtpar::analysis::segmented_response(*shares, 10'999'999, [](std::size_t rank, __int128) {
          return __int128(rank == 1 ? 1'000'000 : 0);
        }).status == rtpar::analysis::RtaStatus::missed);
  // Overflow: two strands of 2^62 ns on one thread do not fit int64.
  const std::vector<rtpar::SegmentSpec> huge = {
      rtpar::SegmentSpec{2, rtpar::Duration(std::int64_t{1} << 62), {}}};
  CHECK_FALSE(rtpar::analysis::segment_shares(huge, 1, 0, 0));
  CHECK(rtpar::analysis::segment_shares(huge, 2, 0, 0));
}

TEST_CASE("partitioned: a heavy segments task alone on two idle cores (worked example)") {
  rtpar::TaskSet set = two_cores();
  // D = T = 10 ms < C = 16 ms: R = 4 + 2 + 3 = 9 ms.
  set.tasks.push_back(heavy_task(10ms, 10ms));
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].heavy);
  CHECK(plan.tasks[0].response_bound_ns == 9'000'000);
  // Boundary: D = 9 ms admits (R = D), 9 ms − 1 ns rejects; EDF gives the same bound alone.
  set.tasks[0].deadline = 9ms;
  CHECK(rtpar::plan_with(rtpar::PlannerKind::partitioned, set).schedulable);
  set.tasks[0].deadline = 9ms - 1ns;
  const rtpar::Plan over = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(over.schedulable);
  CHECK(over.tasks[0].reason->find("static-blocks segments: 9ms on idle cores") !=
        std::string::npos);
  set.tasks[0].deadline = 9ms;
  set.tasks[0].priority.reset();
  const rtpar::Plan edf = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK(edf.schedulable);
  CHECK(edf.tasks[0].response_bound_ns == 9'000'000);
  // Two threads on one core (places {0}, threads = 2), or runtime = "steal": no team bound, the
  // whole C = 16 ms per core, never ≤ D.
  set.tasks[0].priority = 50;
  set.tasks[0].places = {0};
  set.tasks[0].threads = 2;
  const rtpar::Plan shared = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(shared.schedulable);
  CHECK(shared.tasks[0].reason->find("threads share cores") != std::string::npos);
  set.tasks[0].places = {0, 1};
  set.tasks[0].threads = 0;
  set.tasks[0].runtime = rtpar::RuntimeKind::steal;
  CHECK_FALSE(rtpar::plan_with(rtpar::PlannerKind::partitioned, set).schedulable);
  // Another kernel's code decides its own split: no static-blocks shares either.
  set.tasks[0].runtime = rtpar::RuntimeKind::team;
  set.tasks[0].kernel = "matmul";
  CHECK_FALSE(rtpar::plan_with(rtpar::PlannerKind::partitioned, set).schedulable);
}

TEST_CASE("partitioned: a heavy (C, L) task, greedy on its team: ⌈(C − L)/m⌉ + L") {
  rtpar::TaskSet set = two_cores();
  rtpar::TaskSpec t = light_task("g", 10ms, 16ms, 0, 50);
  t.span = 4ms;
  t.places = {0, 1};
  set.tasks.push_back(t);
  // 4 + ⌈12/2⌉ = 10 ms = D: admitted at equality.
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].response_bound_ns == 10'000'000);
  // One ns more work: 4 ms + ⌈(12 ms + 1 ns)/2⌉ = 10 ms + 1 ns > D.
  set.tasks[0].work = 16ms + 1ns;
  const rtpar::Plan over = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(over.schedulable);
  CHECK(over.tasks[0].reason->find("greedy") != std::string::npos);
}

TEST_CASE("partitioned: a heavy task alongside light tasks on its cores (worked example)") {
  rtpar::TaskSet set = two_cores();
  // h: D = T = 12 ms, priority 50 on {0, 1}; a: priority 60 on core 1, C = 1, T = D = 20 (ms);
  // b: priority 40 on core 1, C = 1, T = D = 40 (ms).
  // wait = "block": h's waiting members sleep at once (the hybrid default is checked below).
  set.tasks.push_back(heavy_task(12ms, 12ms));
  set.tasks[0].wait = rtpar::WaitPolicy::block();
  set.tasks.push_back(light_task("a", 20ms, 1ms, 1, 60));
  set.tasks.push_back(light_task("b", 40ms, 1ms, 1, 40));
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  REQUIRE(plan.schedulable);
  // h (spans cores), a's carry-in workload W(x) = N + min(1, x + 19 − 20N), N = ⌊(x + 19)/20⌋:
  //   whole window: R = 9 + W(9) = 9 + 2 = 11; W(11) = 2 → R = 11 ms.
  //   per segment: rank 1 on core 1: 4 + W(4) = 6, W(6) = 2 → 6; segment 2 on core 0: 2;
  //   3 + W(3) = 5 → 5; total 6 + 2 + 5 = 13 ms. The smaller, 11 ms, is the bound.
  CHECK(plan.tasks[0].response_bound_ns == 11'000'000);
  CHECK(plan.tasks[1].response_bound_ns == 1'000'000);
  // b: a exactly (⌈x/20⌉·1, both single-core), h by carry-in with its demand on core 1, rank 1's
  // shares 4 + 3 = 7 ms (not C = 16): W_h(x) = 7N + min(7, x + 5 − 12N), N = ⌊(x + 5)/12⌋:
  //   1 + 1 + W_h(1) = 1 + 1 + 6 = 8; 1 + 1 + W_h(8) = 10; → 12 → 14 → 1 + 1 + 14 = 16 = fixed.
  CHECK(plan.tasks[2].response_bound_ns == 16'000'000);
  // wait = "hybrid" (50 µs): after each of its 2 regions a member may spin 50 µs at priority 50,
  // so h's demand on core 1 is 7.1 ms: W_h(x) = 7.1N + min(7.1, x + 4.9 − 12N); b:
  //   7.9 → 9.9 → 11.9 → 13.9 → 15.9 → 1 + 1 + 14.2 = 16.2 ms. h and a are unchanged.
  set.tasks[0].wait = rtpar::WaitPolicy::hybrid(50us);
  const rtpar::Plan hybrid = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK(hybrid.tasks[0].response_bound_ns == 11'000'000);
  CHECK(hybrid.tasks[2].response_bound_ns == 16'200'000);
  // wait = "spin": a member may spin through the whole job, so h's demand is D_h = 12 ms on each
  // core: with c = D = T = 12 the carry-in bound is W_h(x) = 12⌊x/12⌋ + min(12, x − 12⌊x/12⌋) = x,
  // so R = 1 + 1 + x has no fixed point: b is rejected (a core-hogging team above it).
  set.tasks[0].wait = rtpar::WaitPolicy::spin();
  const rtpar::Plan spin = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  CHECK_FALSE(spin.schedulable);
  CHECK(spin.tasks[2].reason);
  set.tasks[0].wait = rtpar::WaitPolicy::block();
  // Boundary for h: D = 11 ms admits, 11 ms − 1 ns rejects.
  set.tasks[0].deadline = 11ms;
  CHECK(rtpar::plan_with(rtpar::PlannerKind::partitioned, set).schedulable);
  set.tasks[0].deadline = 11ms - 1ns;
  CHECK_FALSE(rtpar::plan_with(rtpar::PlannerKind::partitioned, set).schedulable);
}

TEST_CASE("partitioned: --overhead charges release latency per job and fork/join per segment") {
  rtpar::TaskSet set = two_cores();
  set.tasks.push_back(heavy_task(10ms, 10ms));
  rtpar::OverheadProfile profile;
  profile.source = "prof.json";
  rtpar::ForkJoinCost fork;
  fork.threads = 2;
  fork.wait = rtpar::WaitKind::hybrid;
  fork.p999_ns = fork.max_ns = 100'000;
  profile.fork_join.push_back(fork);
  rtpar::PlanOptions options;
  options.overhead = &profile;
  // No `release` entries: refused, as by every planner (exit 2 naming the file and the array).
  CHECK_THROWS_WITH_AS(rtpar::plan_with(rtpar::PlannerKind::partitioned, set, options),
                       doctest::Contains("prof.json: release: cannot bound"), rtpar::InputError);
  // A release latency of 50 µs per job: 9.25 ms; with D = 9.25 ms admitted, − 1 ns rejected.
  rtpar::ForkJoinCost release = fork;
  release.parked = true;
  release.p999_ns = release.max_ns = 50'000;
  profile.release.push_back(release);
  const rtpar::Plan both = rtpar::plan_with(rtpar::PlannerKind::partitioned, set, options);
  REQUIRE(both.schedulable);
  CHECK(both.tasks[0].response_bound_ns == 9'250'000);
  bool said = false;
  for (const std::string& note : both.notes) {
    said = said || (note.find("h: charged release latency 50us") != std::string::npos &&
                    note.find("× 2 region(s)") != std::string::npos &&
                    note.find("prof.json") != std::string::npos);
  }
  CHECK(said);
  set.tasks[0].deadline = 9250us;
  CHECK(rtpar::plan_with(rtpar::PlannerKind::partitioned, set, options).schedulable);
  set.tasks[0].deadline = 9250us - 1ns;
  CHECK_FALSE(rtpar::plan_with(rtpar::PlannerKind::partitioned, set, options).schedulable);
  // A single-thread task pays the release latency of a team of 1 (the entry of 2 bounds it).
  set.tasks = {light_task("s", 10ms, 1ms, 0, 10)};
  const rtpar::Plan single = rtpar::plan_with(rtpar::PlannerKind::partitioned, set, options);
  CHECK(single.tasks[0].response_bound_ns == 1'050'000);
  // A profile whose `release` entries cannot bound the task's policy is refused.
  set.tasks[0].wait.kind = rtpar::WaitKind::spin;
  CHECK_THROWS_AS(rtpar::plan_with(rtpar::PlannerKind::partitioned, set, options),
                  rtpar::InputError);
}

TEST_CASE("partitioned: a bound that overflows int64 is never admitted") {
  rtpar::TaskSet set = two_cores();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  rtpar::TaskSpec t = light_task("big", rtpar::Duration(kMax), rtpar::Duration(kMax - 10), 0, 10);
  set.tasks.push_back(t);
  CHECK(rtpar::plan_with(rtpar::PlannerKind::partitioned, set).schedulable);
  rtpar::OverheadProfile profile;
  rtpar::ForkJoinCost cost;
  cost.threads = 1;
  cost.p999_ns = cost.max_ns = 1'000;
  profile.fork_join.push_back(cost);
  profile.release.push_back(cost);
  rtpar::PlanOptions options;
  options.overhead = &profile;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set, options);
  CHECK_FALSE(plan.schedulable);
  CHECK(plan.tasks[0].reason->find("overflow") != std::string::npos);
}

TEST_CASE("partitioned: examples/partitioned_heavy.toml plans as worked out and simulates below") {
  const rtpar::TaskSet set =
      rtpar::load_taskset(RTPAR_SOURCE_DIR "/examples/partitioned_heavy.toml");
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].response_bound_ns == 11'000'000);
  CHECK(plan.tasks[1].response_bound_ns == 1'000'000);
  CHECK(plan.tasks[2].response_bound_ns == 16'000'000);
  // One hyperperiod (120 ms): h's jobs take 10 ms (9 ms plus a's 1 ms on core 1 when released
  // together), b's 6 ms (a, then rank 1's 4 ms share, then b); none above its bound.
  const rtpar::SimResult sim = rtpar::simulate_plan(plan, set);
  REQUIRE(sim.tasks.size() == 3);
  CHECK(sim.tasks[0].max_response_ns == 10'000'000);
  CHECK(sim.tasks[2].max_response_ns == 6'000'000);
  for (const rtpar::SimTaskResult& t : sim.tasks) {
    CHECK(t.misses == 0);
    CHECK(*t.max_response_ns <= *t.response_bound_ns);
  }
}
