// test_overhead_injection.cpp — SimOptions::overhead by hand: the same plan simulated with and
// without the profile's overheads injected differs by exactly the injected node lengths
// (docs/internals/simulation.md, "Overheads"), for a team plan, both kinds of strand plan, the
// barrier's team size, and partitioned tasks sharing a core.
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>

#include <doctest/doctest.h>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"

namespace {

// profile is release 300 ns (1 thread) / 500 ns (2), fork/join 1 µs, barrier 800 ns, hybrid.
rtpar::OverheadProfile profile() {
  rtpar::OverheadProfile p;
  auto cost = [](int threads, std::int64_t ns) {
    rtpar::ForkJoinCost c;
    c.threads = threads;
    c.wait = rtpar::WaitKind::hybrid;
    c.p50_ns = c.p99_ns = c.p999_ns = c.max_ns = ns;
    return c;
  };
  p.release = {cost(1, 300), cost(2, 500)};
  p.fork_join = {cost(2, 1000)};
  p.barrier = {cost(2, 800)};
  return p;
}

// cores_set is one task of `segments` on cores {0, ..., cores - 1}, T = D = `deadline_us`.
rtpar::TaskSet cores_set(int cores, std::int64_t deadline_us,
                         std::initializer_list<rtpar::SegmentSpec> segments) {
  rtpar::TaskSet set;
  set.source = "<injection>";
  for (int c = 0; c < cores; ++c) set.system.cores.push_back(c);
  rtpar::TaskSpec t;
  t.name = "t";
  t.period = t.deadline = rtpar::Duration(deadline_us * 1000);
  t.segments = segments;
  std::int64_t work = 0;
  std::int64_t span = 0;
  for (const rtpar::SegmentSpec& s : t.segments) {
    work += s.strands * s.length.count();
    span += s.length.count();
  }
  t.work = rtpar::Duration(work);
  t.span = rtpar::Duration(span);
  set.tasks.push_back(t);
  rtpar::validate_taskset(set);
  return set;
}

// responses simulates `plan` without and with the profile injected: {R without, R with, bound}.
struct Responses {
  std::int64_t plain = 0, injected = 0, bound = 0;
};
Responses responses(const rtpar::Plan& plan, const rtpar::TaskSet& set,
                    const rtpar::OverheadProfile& p) {
  rtpar::SimOptions with;
  with.overhead = &p;
  const rtpar::SimResult a = rtpar::simulate_plan(plan, set);
  const rtpar::SimResult b = rtpar::simulate_plan(plan, set, with);
  REQUIRE(a.tasks.at(0).max_response_ns);
  REQUIRE(b.tasks.at(0).max_response_ns);
  REQUIRE(plan.tasks.at(0).response_bound_ns);
  CHECK(a.misses == 0);
  CHECK(b.misses == 0);
  return {*a.tasks[0].max_response_ns, *b.tasks[0].max_response_ns,
          *plan.tasks[0].response_bound_ns};
}

// charged_plan is `kind`'s plan of `set` with `p` charged; the cases need it schedulable.
rtpar::Plan charged_plan(rtpar::PlannerKind kind, const rtpar::TaskSet& set,
                         const rtpar::OverheadProfile& p) {
  rtpar::PlanOptions options;
  options.overhead = &p;
  rtpar::Plan plan = rtpar::plan_with(kind, set, options);
  REQUIRE(plan.schedulable);
  return plan;
}

// kTwoThenOne is a segment of 2 × 10 µs, then one of 1 × 5 µs.
const std::initializer_list<rtpar::SegmentSpec> kTwoThenOne = {{2, rtpar::Duration(10'000), {}},
                                                               {1, rtpar::Duration(5'000), {}}};

// check_last_segment plans `set` (segments kTwoThenOne) with decomposition charging `p`, and
// checks that its job ends at segment 2's offset + 5 µs without injection and exactly `extra` ns
// later with `p` injected (what the last strand pays), within the charged bound.
void check_last_segment(const rtpar::TaskSet& set, const rtpar::OverheadProfile& p,
                        std::int64_t extra) {
  const rtpar::Plan plan = charged_plan(rtpar::PlannerKind::decomposition, set, p);
  REQUIRE(plan.tasks[0].segments.size() == 2);
  const std::int64_t offset = plan.tasks[0].segments[1].offset_ns;
  CHECK(offset >= 10'000 + 300);  // after segment 1's charged strands
  const Responses r = responses(plan, set, p);
  CHECK(r.plain == offset + 5'000);
  CHECK(r.injected == offset + 5'000 + extra);
  CHECK(r.injected <= r.bound);
}

}  // namespace

TEST_CASE("overhead injection: a federated team pays Λ(2) + F(2) on its master") {
  // C = 2 × 10 µs, L = 10 µs, D = 19 µs: heavy, a team of 2 on cores {0, 1} (charged C = 21.5,
  // L = 11.5 µs: ⌈10 / 7.5⌉ = 2). One region: release 500 ns, then fork/join 1 µs, then the two
  // strands in parallel: R = 0.5 + 1 + 10 = 11.5 µs against 10 µs without.
  const rtpar::OverheadProfile p = profile();
  const rtpar::TaskSet set = cores_set(2, 19, {{2, rtpar::Duration(10'000), {}}});
  const rtpar::Plan plan = charged_plan(rtpar::PlannerKind::federated, set, p);
  REQUIRE(plan.tasks[0].thread_cores.size() + plan.tasks[0].cores.size() >= 2);
  const Responses r = responses(plan, set, p);
  CHECK(r.plain == 10'000);
  CHECK(r.injected == 11'500);
  CHECK(r.injected <= r.bound);
}

TEST_CASE("overhead injection: decomposition strands pay Λ(1), and β(2) after a boundary") {
  // Segments 2 × 10 µs then 1 × 5 µs on cores {0, 1}, D = 100 µs. The plan (made with the
  // profile) releases segment 2 at its offset, after segment 1's charged window, so the job ends
  // at that offset + 5 µs + Λ(1) 300 ns + β(2) 800 ns: exactly 1.1 µs later than without.
  check_last_segment(cores_set(2, 100, kTwoThenOne), profile(), 300 + 800);
}

TEST_CASE("overhead injection: fork-join-rta's aggregate strands pay F(N) and Λ(N)") {
  // One stage of 2 × 10 µs, D = 15 µs: one core cannot hold 20 µs, so N = 2, one strand per core.
  // The stage runs on more than one core and is the first: each core's aggregate strand runs
  // F(2) 1 µs + Λ(2) 500 ns longer, R = 11.5 µs against 10 µs without.
  const rtpar::OverheadProfile p = profile();
  const rtpar::TaskSet set = cores_set(2, 15, {{2, rtpar::Duration(10'000), {}}});
  const rtpar::Plan plan = charged_plan(rtpar::PlannerKind::fork_join_rta, set, p);
  REQUIRE(plan.tasks[0].cores.size() == 2);
  const Responses r = responses(plan, set, p);
  CHECK(r.plain == 10'000);
  CHECK(r.injected == 11'500);
  CHECK(r.injected <= r.bound);
}

TEST_CASE("overhead injection: decomposition's barrier is the team's, β(min(Σ strands, m))") {
  // Segments 2 × 10 µs then 1 × 5 µs: Σ strands = 3. On 2 cores the team is min(3, 2) = 2 and
  // the barrier β(2) = 800 ns; on 4 cores it is min(3, 4) = 3, whose nearest measured team at or
  // above is 4: β(4) = 1.6 µs. The last strand runs at its offset + 5 µs + Λ(1) 300 ns + β.
  rtpar::OverheadProfile p = profile();
  rtpar::ForkJoinCost four = p.barrier.at(0);
  four.threads = 4;
  four.p50_ns = four.p99_ns = four.p999_ns = four.max_ns = 1600;
  p.barrier.push_back(four);
  for (const auto& [cores, beta] : {std::pair{2, 800}, std::pair{4, 1600}}) {
    CAPTURE(cores);
    check_last_segment(cores_set(cores, 100, kTwoThenOne), p, 300 + beta);
  }
}

TEST_CASE("overhead injection: partitioned tasks pay Λ(1) per job on their shared core") {
  // Two sequential tasks on core 0 at fixed priorities: hi (C 10 µs, D 100 µs, priority 20) and
  // lo (C 20 µs, D 200 µs, priority 10), released together. With Λ(1) = 300 ns injected: hi ends
  // at 0.3 + 10 = 10.3 µs, lo at 10.3 + 0.3 + 20 = 30.6 µs: exactly the response-time analysis'
  // bounds charged with the same profile (R_lo = 20.3 + ⌈R_lo / 100⌉ · 10.3).
  const rtpar::OverheadProfile p = profile();
  rtpar::TaskSet set;
  set.source = "<injection>";
  set.system.cores = {0};
  for (const auto& [name, c_us, d_us, prio] :
       {std::tuple{"hi", 10, 100, 20}, std::tuple{"lo", 20, 200, 10}}) {
    rtpar::TaskSpec t;
    t.name = name;
    t.priority = prio;
    t.period = t.deadline = rtpar::Duration(std::int64_t{d_us} * 1000);
    t.work = t.span = rtpar::Duration(std::int64_t{c_us} * 1000);
    t.places = {0};
    set.tasks.push_back(t);
  }
  rtpar::validate_taskset(set);
  const rtpar::Plan plan = charged_plan(rtpar::PlannerKind::partitioned, set, p);
  rtpar::SimOptions with;
  with.overhead = &p;
  const rtpar::SimResult a = rtpar::simulate_plan(plan, set);
  const rtpar::SimResult b = rtpar::simulate_plan(plan, set, with);
  REQUIRE(a.tasks.size() == 2);
  REQUIRE(b.tasks.size() == 2);
  CHECK(a.tasks[0].max_response_ns == 10'000);
  CHECK(a.tasks[1].max_response_ns == 30'000);
  CHECK(b.tasks[0].max_response_ns == 10'300);
  CHECK(b.tasks[1].max_response_ns == 30'600);
  CHECK(plan.tasks[0].response_bound_ns == 10'300);
  CHECK(plan.tasks[1].response_bound_ns == 30'600);
  CHECK(b.misses == 0);
}
