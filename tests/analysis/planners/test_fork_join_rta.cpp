// test_fork_join_rta.cpp — the fork/join RTA (fjrta.hpp) and the FJOS assignment
// (plan_fork_join_rta) on hand-derived vectors. Topology: test_topology.cpp; randomized checks
// against brute-force simulation: test_fork_join_rta_sim.cpp.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/bounds/fork_join_stage_rta.hpp"
#include "analysis/bounds/stages.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/topology.hpp"
#include "support/fork_join_pair.hpp"

using namespace std::chrono_literals;
using rtpar::analysis::FjGroup;
using rtpar::analysis::FjStage;
using rtpar::analysis::FjTask;
using rtpar::testing::fj_task;

TEST_CASE("fjrta: a task alone finishes after the sum of its slowest aggregate strands") {
  // Stages: {core 0: 2, core 1: 3}, {core 0: 4}: B_0 = 3, B_1 = 3 + 4 = 7.
  FjTask t{100, 100, 10, {FjStage{{{0, 2}, {1, 3}}}, FjStage{{{0, 4}}}}, {}};
  const auto r = rtpar::analysis::fj_analyse(t, {});
  REQUIRE(r);
  CHECK(*r == 7);
  CHECK(t.finish == std::vector<std::int64_t>{3, 7});
}

TEST_CASE("fjrta: interference and stage jitter of a higher-priority task") {
  // hp: T = 10, stage 0 on core 0 (c = 2), stage 1 on core 1 (c = 1) → B_hp = {2, 3};
  // its stage-1 strand on core 1 has jitter J = B_hp,0 = 2.
  FjTask hp{10, 10, 20, {FjStage{{{0, 2}}}, FjStage{{{1, 1}}}}, {}};
  REQUIRE(rtpar::analysis::fj_analyse(hp, {}) == 3);
  // lp: T = D = 20, one stage with strands on core 0 (c = 3) and core 1 (c = 3).
  //   core 0: w = 3 + ⌈w/10⌉·2 → 5 → 5 (fixed point 5)
  //   core 1: w = 3 + ⌈(w + 2)/10⌉·1 → 4 → 4
  //   B = max(5, 4) = 5.
  FjTask lp{20, 20, 10, {FjStage{{{0, 3}, {1, 3}}}}, {}};
  const auto r = rtpar::analysis::fj_analyse(lp, {&hp});
  REQUIRE(r);
  CHECK(*r == 5);
  // A jitter that pushes a second activation into the window: core 1 with c = 9:
  //   w = 9 + ⌈(w + 2)/10⌉ → 10 → 11 → 11; B = 11 (core 0: 9 + ⌈w/10⌉·2 → 11 → 13 → 13) → 13.
  FjTask lp2{20, 20, 10, {FjStage{{{0, 9}, {1, 9}}}}, {}};
  CHECK(rtpar::analysis::fj_analyse(lp2, {&hp}) == 13);
  // Deadline boundary: D = 13 passes, D = 12 fails.
  lp2.deadline = 13;
  CHECK(rtpar::analysis::fj_analyse(lp2, {&hp}) == 13);
  lp2.deadline = 12;
  CHECK_FALSE(rtpar::analysis::fj_analyse(lp2, {&hp}));
}

TEST_CASE("fork-join-rta: minimal cores, round-robin strands, overhead per fork") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1, 2, 3};
  set.system.fork_join_overhead = 100us;
  // C = 1 + 4·2 + 1 = 10 ms, L = 4 ms, T = D = 6 ms: N starts at ⌈10/6⌉ = 2.
  // On 2 cores: 1 + (2·2 + 0.1) + 1 = 6.1 ms > 6 → fail; on 3 cores: stage 1 has strands on
  // cores (2, 1, 1) → 1 + (4 + 0.1) + 1 = 6.1 > 6 → fail; on 4: 1 + 2.1 + 1 = 4.1 ms ≤ 6.
  set.tasks.push_back(fj_task("a", 6ms, {{1, 1ms, {}}, {4, 2ms, {}}, {1, 1ms, {}}}));
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(plan.tasks.size() == 1);
  CHECK(plan.schedulable);
  CHECK(plan.tasks[0].cores_needed == 4);
  CHECK(plan.tasks[0].response_bound_ns == 4'100'000);
  REQUIRE(plan.tasks[0].segments.size() == 3);
  CHECK(plan.tasks[0].segments[1].strands.size() == 4);
  CHECK(plan.tasks[0].segments[1].deadline_ns == 3'100'000);
  // Without the overhead the same task needs only 2 cores: 1 + 4 + 1 = 6 = D (boundary).
  set.system.fork_join_overhead = rtpar::Duration::zero();
  const rtpar::Plan lean = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK(lean.tasks[0].cores_needed == 2);
  CHECK(lean.tasks[0].response_bound_ns == 6'000'000);
  // A measured profile replaces the constant: 3 ms per fork on 4 threads makes it unschedulable.
  rtpar::OverheadProfile profile;
  rtpar::ForkJoinCost cost;
  cost.threads = 4;
  cost.wait = rtpar::WaitKind::hybrid;
  cost.p999_ns = 3'000'000;
  cost.max_ns = 3'000'000;
  for (int n = 2; n <= 4; ++n) {
    cost.threads = n;
    profile.fork_join.push_back(cost);
  }
  cost.p999_ns = cost.max_ns = 0;  // no release latency: only the fork/join cost matters here
  profile.release.push_back(cost);
  rtpar::PlanOptions options;
  options.overhead = &profile;
  const rtpar::Plan heavy = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options);
  CHECK_FALSE(heavy.schedulable);
}

TEST_CASE("fork-join-rta: zero spare cores, DAG tasks and equal priorities") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0};
  set.tasks.push_back(fj_task("a", 10ms, {{2, 2ms, {}}}));
  set.tasks.push_back(fj_task("b", 10ms, {{1, 7ms, {}}}));
  // One core: a takes 4 ms, b gets 7 ms + 4 ms of interference = 11 ms > 10 ms.
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK_FALSE(plan.schedulable);
  CHECK(plan.tasks[0].response_bound_ns == 4'000'000);
  CHECK(plan.tasks[1].reason);
  // Equal explicit priorities interfere both ways: b (7 ms) and a (4 ms) each see the other.
  set.tasks[0].priority = 50;
  set.tasks[1].priority = 50;
  set.tasks[1].segments = {{1, 5ms, {}}};
  set.tasks[1].work = set.tasks[1].span = 5ms;
  const rtpar::Plan equal = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK(equal.schedulable);
  CHECK(equal.tasks[0].response_bound_ns == 9'000'000);  // 4 + 5
  CHECK(equal.tasks[1].response_bound_ns == 9'000'000);  // 5 + 4
  // A DAG task is analysed in its synchronous form: one node of 5 ms is one strand of 5 ms.
  set.tasks[1].segments.clear();
  set.tasks[1].dag = rtpar::DagSpec{{rtpar::DagNode{"x", 5ms, {}, {}}}};
  const rtpar::Plan dag = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK(dag.schedulable);
  CHECK(dag.tasks[1].response_bound_ns == 9'000'000);
}

TEST_CASE("stages: a DAG's synchronous form keeps C and L (Saifullah et al. RTS'13)") {
  // a(1) → b(2), a → c(5), b → d(1), c → d. Earliest starts: a 0, b 1, c 1, d 6.
  // Cuts 0, 1, 3, 6, 7 → segments [0,1): a; [1,3): b, c; [3,6): c; [6,7): d.
  rtpar::DagSpec dag;
  dag.nodes = {
      {"a", 1ms, {}, {}}, {"b", 2ms, {0}, {}}, {"c", 5ms, {0}, {}}, {"d", 1ms, {1, 2}, {}}};
  const std::vector<rtpar::SegmentSpec> s = rtpar::analysis::synchronous_form(dag);
  REQUIRE(s.size() == 4);
  CHECK(s[0].strands == 1);
  CHECK(s[0].length == 1ms);
  CHECK(s[1].strands == 2);
  CHECK(s[1].length == 2ms);
  CHECK(s[2].strands == 1);
  CHECK(s[2].length == 3ms);
  CHECK(s[3].strands == 1);
  CHECK(s[3].length == 1ms);
  rtpar::Duration work{0};
  rtpar::Duration span{0};
  for (const auto& seg : s) {
    work += seg.length * seg.strands;
    span += seg.length;
  }
  CHECK(work == 9ms);  // C = 1 + 2 + 5 + 1
  CHECK(span == 7ms);  // L = a → c → d
}

TEST_CASE("fork-join-rta: socket-aware placement on a 40c4s target") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  // Two tasks of 8 strands that need 8 cores each (C = 8·5 = 40 ms, T = D = 5.5 ms):
  // N = ⌈40/5.5⌉ = 8 ≤ 10 cores per socket → one socket each, on different sockets.
  set.tasks.push_back(fj_task("a", 5500us, {{8, 5ms, {}}}));
  set.tasks.push_back(fj_task("b", 5500us, {{8, 5ms, {}}}));
  const rtpar::Topology target = rtpar::parse_target("40c4s");
  rtpar::PlanOptions options;
  options.target = &target;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options);
  CHECK(plan.schedulable);
  CHECK(plan.cores.size() == 40);
  for (const rtpar::TaskPlan& tp : plan.tasks) {
    CHECK(tp.cores.size() == 8);
    const int socket = target.socket_of(tp.cores.front());
    for (const int c : tp.cores) CHECK(target.socket_of(c) == socket);
  }
  CHECK(target.socket_of(plan.tasks[0].cores.front()) !=
        target.socket_of(plan.tasks[1].cores.front()));
}

TEST_CASE("fork-join-rta: a 12-core task fills one socket of 40c4s before crossing") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  // a: 12 strands of 5 ms, T = D = 5.5 ms, C = 60 ms: N = ⌈60/5.5⌉ = 11 → round robin puts two
  // strands on cores[0] (10 ms > 5.5) → N = 12: 5 ms ≤ 5.5. Socket fill: all of socket 0
  // (CPUs 0..9), then the 2 most available of socket 1 (all equal → lowest ids 10, 11).
  set.tasks.push_back(fj_task("a", 5500us, {{12, 5ms, {}}}));
  // b (lower priority, D = 6 ms): N = 8 on the socket with the most available utilization:
  // sockets 2 and 3 are empty (10 each), socket 1 has 10 − 2·(5/5.5) → socket 2: CPUs 20..27.
  set.tasks.push_back(fj_task("b", 6ms, {{8, 5ms, {}}}));
  const rtpar::Topology target = rtpar::parse_target("40c4s");
  rtpar::PlanOptions options;
  options.target = &target;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].cores_needed == 12);
  CHECK(plan.tasks[0].cores == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(plan.tasks[0].response_bound_ns == 5'000'000);
  CHECK(plan.tasks[1].cores == std::vector<int>{20, 21, 22, 23, 24, 25, 26, 27});
  // Strand k of the stage is on cores[k mod N]: a one-to-one map here.
  REQUIRE(plan.tasks[1].segments.size() == 1);
  for (std::size_t k = 0; k < 8; ++k) {
    CHECK(plan.tasks[1].segments[0].strands[k].core == 20 + static_cast<int>(k));
    CHECK(plan.tasks[1].segments[0].strands[k].priority == plan.tasks[1].priority);
  }
  CHECK(plan.tasks[0].priority > plan.tasks[1].priority);  // deadline monotonic
}

TEST_CASE("fjrta: the critical-strand optimisation charges interference once per chain") {
  rtpar::analysis::FjOptions plain;
  plain.chains = false;
  // hp on core 0: c = 1, T = 10. lp: three one-strand stages of 1 on core 0, T = D = 30.
  //   plain: every stage w = 1 + ⌈w/10⌉·1 = 2 → B = 2, 4, 6.
  //   chains: one busy window W(0..2) = 3 + ⌈w/10⌉ = 4 → B = 2, 3, 4 (exact: the hp job once).
  FjTask hp{10, 10, 20, {FjStage{{{0, 1}}}}, {}};
  REQUIRE(rtpar::analysis::fj_analyse(hp, {}) == 1);
  FjTask lp{30, 30, 10, {FjStage{{{0, 1}}}, FjStage{{{0, 1}}}, FjStage{{{0, 1}}}}, {}};
  CHECK(rtpar::analysis::fj_analyse(lp, {&hp}, plain) == 6);
  CHECK(lp.finish == std::vector<std::int64_t>{2, 4, 6});
  CHECK(rtpar::analysis::fj_analyse(lp, {&hp}) == 4);
  CHECK(lp.finish == std::vector<std::int64_t>{2, 3, 4});

  // Two cores. hp on core 0: c = 2, T = 20. lp: stages {core 0: 3, core 1: 1} twice, T = D = 40.
  //   plain: stage 0: core 0 w = 3 + ⌈w/20⌉·2 = 5, core 1: 1 → B0 = 5; stage 1 again 5 → 10.
  //   chains, stage 1, core 0: run from stage 0: W(0..1) = 6 + ⌈w/20⌉·2 = 8 → 0 + 8;
  //     run from stage 1 (core 1 finished stage 0 last, F0(1) = 1): 1 + (3 + 2) = 6 → F1(0) = 8;
  //     core 1: run from stage 0: W = 2 → 2; from stage 1 after core 0: F0(0) + 1 = 6 → 6.
  //   B1 = max(8, 6) = 8, which a run reaches (hp at 0: hp [0,2), lp [2,5), [5,8)).
  FjTask hp2{20, 20, 20, {FjStage{{{0, 2}}}}, {}};
  REQUIRE(rtpar::analysis::fj_analyse(hp2, {}) == 2);
  FjTask lp2{40, 40, 10, {FjStage{{{0, 3}, {1, 1}}}, FjStage{{{0, 3}, {1, 1}}}}, {}};
  CHECK(rtpar::analysis::fj_analyse(lp2, {&hp2}, plain) == 10);
  CHECK(rtpar::analysis::fj_analyse(lp2, {&hp2}) == 8);
  CHECK(lp2.finish == std::vector<std::int64_t>{5, 8});
  // The deadline cap uses the same bound: D = 8 passes with chains and fails without.
  lp2.deadline = 8;
  CHECK(rtpar::analysis::fj_analyse(lp2, {&hp2}) == 8);
  CHECK_FALSE(rtpar::analysis::fj_analyse(lp2, {&hp2}, plain));
  lp2.deadline = 7;
  CHECK_FALSE(rtpar::analysis::fj_analyse(lp2, {&hp2}));
}

TEST_CASE("fjrta: equal priorities on a core fall back to stage-by-stage windows") {
  // e has lp's priority: SCHED_FIFO queues each newly released strand of lp behind a pending job
  // of e, so a chain is not one preemptive busy window there; lp's three stages of 1 on core 0
  // get w = 1 + ⌈w/10⌉·1 = 2 each → B = 2, 4, 6 instead of the chained 4.
  FjTask e{10, 10, 10, {FjStage{{{0, 1}}}}, {}};
  REQUIRE(rtpar::analysis::fj_analyse(e, {}) == 1);
  FjTask lp{30, 30, 10, {FjStage{{{0, 1}}}, FjStage{{{0, 1}}}, FjStage{{{0, 1}}}}, {}};
  CHECK(rtpar::analysis::fj_analyse(lp, {&e}) == 6);
  // One priority higher, e preempts and the chain applies: 3 + ⌈w/10⌉ = 4.
  e.priority = 11;
  CHECK(rtpar::analysis::fj_analyse(lp, {&e}) == 4);
  // Lower-priority tasks do not interfere at all.
  e.priority = 9;
  CHECK(rtpar::analysis::fj_analyse(lp, {&e}) == 3);
}

TEST_CASE("fjrta: an interferer's back-to-back strands on one core are one job") {
  // hp: three one-strand stages on core 0 (2, 6, 1), T = 10. Its stage-1 strand is released the
  // instant stage 0 completes, so core 0 sees one job of 9 released at the activation.
  FjTask hp{10, 10, 20, {FjStage{{{0, 2}}}, FjStage{{{0, 6}}}, FjStage{{{0, 1}}}}, {}};
  REQUIRE(rtpar::analysis::fj_analyse(hp, {}) == 9);
  CHECK(hp.finish == std::vector<std::int64_t>{2, 8, 9});
  // lp: c = 1 on core 0, T = D = 30: w = 1 + ⌈w/10⌉·9 → 10 → 1 + ⌈10/10⌉·9 = 10. The ceiling
  // at an exact multiple (w = T_hp) counts one job, not two.
  FjTask lp{30, 30, 10, {FjStage{{{0, 1}}}}, {}};
  CHECK(rtpar::analysis::fj_analyse(lp, {&hp}) == 10);
  // Stage by stage with jitters 0, 2, 8 the hp strands count separately:
  //   w = 1 + ⌈w/10⌉·2 + ⌈(w+2)/10⌉·6 + ⌈(w+8)/10⌉·1: 1 → 10 → 17 → 20 → 26 → 29 → 35 > 30,
  // so without the merge lp is rejected; with D = T = 40 it goes on 35 → 38 → 38.
  rtpar::analysis::FjOptions plain;
  plain.chains = false;
  CHECK_FALSE(rtpar::analysis::fj_analyse(lp, {&hp}, plain));
  lp.period = lp.deadline = 40;
  CHECK(rtpar::analysis::fj_analyse(lp, {&hp}, plain) == 38);
  CHECK(rtpar::analysis::fj_analyse(lp, {&hp}) == 10);
}

TEST_CASE("fork-join-rta: two tasks share a core; jitter of the interfering stage") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  // a: T = D = 4 ms, stages {1 × 1 ms}, {2 × 2 ms}: C = 5 → N = ⌈5/4⌉ = 2 on CPUs 0, 1:
  //    stage 0 on CPU 0 (1 ms), stage 1 on CPUs 0, 1 (2 ms each) → B = 1, 3 ms.
  set.tasks.push_back(fj_task("a", 4ms, {{1, 1ms, {}}, {2, 2ms, {}}}));
  // a's members block at the gate: no gate spin on CPU 1 (the spin: test_fork_join_rta_spin.cpp).
  set.tasks.back().wait = rtpar::WaitPolicy::block();
  // b: T = D = 20 ms, one strand of 6 ms → N = 1 on the least loaded CPU: CPU 0 carries 3/4 of
  //    a, CPU 1 2/4 → CPU 1, where a's stage-1 strand (2 ms, T = 4, J = B_a,0 = 1 ms) interferes:
  //    w = 6 + ⌈(w + 1)/4⌉·2: 6 → 10 → 12 → 14 → 14 ms.
  set.tasks.push_back(fj_task("b", 20ms, {{1, 6ms, {}}}));
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(plan.schedulable);
  const rtpar::TaskPlan& a = plan.tasks[0];
  CHECK(a.cores == std::vector<int>{0, 1});
  CHECK(a.cores_needed == 2);
  CHECK(a.heavy);
  CHECK(a.response_bound_ns == 3'000'000);
  REQUIRE(a.segments.size() == 2);
  CHECK(a.segments[0].deadline_ns == 1'000'000);
  CHECK(a.segments[1].deadline_ns == 3'000'000);
  CHECK(a.segments[0].offset_ns == 0);
  CHECK(a.segments[1].length_ns == 2'000'000);
  REQUIRE(a.segments[1].strands.size() == 2);
  CHECK(a.segments[1].strands[0].core == 0);
  CHECK(a.segments[1].strands[1].core == 1);
  const rtpar::TaskPlan& b = plan.tasks[1];
  CHECK(b.cores == std::vector<int>{1});
  CHECK_FALSE(b.heavy);
  CHECK(b.response_bound_ns == 14'000'000);
  CHECK(b.utilization == doctest::Approx(0.3));
  // D = 14 ms is the boundary: still schedulable; 13.999999 ms is not (b alone would fit on
  // CPU 0 neither: 6 + ⌈w/4⌉·1 + ⌈(w+1)/4⌉·2 → 6, 15, 18, 21 > 14).
  set.tasks[1].deadline = 14ms;
  CHECK(rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set).schedulable);
  set.tasks[1].deadline = 14ms - 1ns;
  const rtpar::Plan tight = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK_FALSE(tight.schedulable);
  CHECK(tight.tasks[1].reason);
  CHECK_FALSE(tight.tasks[1].response_bound_ns);
}

TEST_CASE("fork-join-rta: boundaries D = L and integral ⌈C/T⌉") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1, 2, 3};
  // D = L: two strands of 3 ms, T = 10, D = 3 ms. C = 6 → N = ⌈6/10⌉ = 1: 6 ms > 3; N = 2:
  // 3 ms = D → schedulable with the bound exactly D.
  rtpar::TaskSpec t = fj_task("a", 10ms, {{2, 3ms, {}}});
  t.deadline = 3ms;
  set.tasks.push_back(t);
  rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].cores_needed == 2);
  CHECK(plan.tasks[0].response_bound_ns == 3'000'000);
  // One nanosecond of fork/join overhead breaks it, and no N ≤ 2 (the widest stage) helps.
  set.system.fork_join_overhead = 1ns;
  plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK_FALSE(plan.schedulable);
  REQUIRE(plan.tasks[0].reason);
  CHECK(plan.tasks[0].reason->find("1..2") != std::string::npos);
  set.system.fork_join_overhead = rtpar::Duration::zero();
  // C/T integral: four strands of 5 ms, T = D = 10 ms: N = 20/10 = 2 exactly (not 3), and
  // two strands per core take 10 ms = D.
  set.tasks[0] = fj_task("a", 10ms, {{4, 5ms, {}}});
  plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].cores_needed == 2);
  CHECK(plan.tasks[0].response_bound_ns == 10'000'000);
  // More cores than the machine has: 5 strands of 5 ms, T = D = 5 ms → N = 5 > Q = 4.
  set.tasks[0] = fj_task("a", 5ms, {{5, 5ms, {}}});
  plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK_FALSE(plan.schedulable);
  REQUIRE(plan.tasks[0].reason);
  CHECK(plan.tasks[0].reason->find("at least 5 cores") != std::string::npos);
}

namespace {

// eight_cores is the `--target 8c` machine: one socket, CPUs 0..7.
rtpar::Topology eight_cores() { return rtpar::Topology{{{0, 1, 2, 3, 4, 5, 6, 7}}}; }

rtpar::ForkJoinCost measured(int threads, rtpar::WaitKind wait, std::int64_t p999) {
  rtpar::ForkJoinCost c;
  c.threads = threads;
  c.wait = wait;
  c.p999_ns = p999;
  c.max_ns = p999;
  return c;
}

}  // namespace

TEST_CASE("fork-join-rta: a profile cost near 2^63 ns overflows the bound: not schedulable") {
  // The reproducer: L = 4 ms (1 + 2 + 1), and p999_ns = 2^63 − 1 wrapped
  // count · length + overhead to a negative cost, admitting the task with R = 1 ms < L.
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1, 2, 3};
  set.tasks.push_back(fj_task("a", 6ms, {{1, 1ms, {}}, {4, 2ms, {}}, {1, 1ms, {}}}));
  rtpar::OverheadProfile profile;
  for (int n = 1; n <= 4; ++n) {
    profile.fork_join.push_back(measured(n, rtpar::WaitKind::hybrid, INT64_MAX));
  }
  profile.release = {measured(2, rtpar::WaitKind::hybrid, 0)};
  rtpar::PlanOptions options;
  options.overhead = &profile;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options);
  REQUIRE(plan.tasks.size() == 1);
  CHECK_FALSE(plan.schedulable);
  CHECK_FALSE(plan.tasks[0].response_bound_ns.has_value());
  REQUIRE(plan.tasks[0].reason);
  CHECK(plan.tasks[0].reason->find("bound overflows") != std::string::npos);
  // A cost that does not overflow but is beyond the deadline fails the RTA as before.
  for (auto& c : profile.fork_join) c.p999_ns = INT64_MAX / 4;
  const rtpar::Plan big = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options);
  CHECK_FALSE(big.schedulable);
  CHECK(big.tasks[0].reason->find("passes the fork/join RTA") != std::string::npos);
  // The constant system.fork_join_overhead (from the task file) is checked the same way.
  const rtpar::Plan from_file = [&] {
    rtpar::TaskSet s = set;
    s.system.fork_join_overhead = rtpar::Duration(INT64_MAX);
    return rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, s);
  }();
  CHECK_FALSE(from_file.schedulable);
  CHECK(from_file.tasks[0].reason->find("bound overflows") != std::string::npos);
}

TEST_CASE("fork-join-rta: team sizes above the profile's are charged by extrapolation, noted") {
  // Measured on 2 cores (100 µs per fork on 2 threads), planned for --target 8c. One stage of 8
  // strands of 1 ms, D = T = 2.5 ms: 1 core 8 ms; 2 cores 4 + 0.1 ms; 3 cores 3 ms + ⌈2/1⌉·0.1;
  // 4 cores 2 ms + ⌈3/1⌉·0.1 = 2.3 ms ≤ 2.5 ms: placed on 4, with an extrapolated charge.
  rtpar::TaskSet set;
  set.source = "<test>";
  set.tasks.push_back(fj_task("wide", 2500us, {{8, 1ms, {}}}));
  rtpar::OverheadProfile profile;
  profile.source = "prof.json";
  profile.fork_join = {measured(1, rtpar::WaitKind::hybrid, 1'000),
                       measured(2, rtpar::WaitKind::hybrid, 100'000)};
  profile.release = {measured(2, rtpar::WaitKind::hybrid, 0)};
  const rtpar::Topology target = eight_cores();
  rtpar::PlanOptions options;
  options.overhead = &profile;
  options.target = &target;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options);
  REQUIRE(plan.schedulable);
  CHECK(plan.tasks[0].cores_needed == 4);
  CHECK(plan.tasks[0].response_bound_ns == 2'300'000);
  bool noted = false;
  for (const std::string& n : plan.notes) {
    noted = noted || (n.find("wide: fork/join cost of a team of 4") != std::string::npos &&
                      n.find("extrapolated") != std::string::npos &&
                      n.find("prof.json") != std::string::npos);
  }
  CHECK(noted);
  // Tighter, D = T = 1.5 ms (⌈C/T⌉ = 6): before, teams of 6..8 were charged nothing and 8 cores
  // passed with R = 1 ms; now 8 cores cost 1 ms + ⌈7/1⌉·0.1 ms = 1.7 ms, no team size passes, and
  // the note says which sizes were extrapolated.
  set.tasks[0] = fj_task("wide", 1500us, {{8, 1ms, {}}});
  const rtpar::Plan tight = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options);
  CHECK_FALSE(tight.schedulable);
  bool range_noted = false;
  for (const std::string& n : tight.notes) {
    range_noted = range_noted || n.find("teams of 6..8") != std::string::npos;
  }
  CHECK(range_noted);
}

TEST_CASE("fork-join-rta: a profile without the task's wait policy is refused (input error)") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  set.tasks.push_back(fj_task("a", 10ms, {{2, 3ms, {}}}));
  set.tasks[0].wait.kind = rtpar::WaitKind::spin;
  rtpar::OverheadProfile profile;
  profile.source = "prof.json";
  profile.fork_join = {measured(2, rtpar::WaitKind::block, 1'000)};
  profile.release = {measured(2, rtpar::WaitKind::spin, 0)};
  rtpar::PlanOptions options;
  options.overhead = &profile;
  // With T = 10 ms, n = 1 passes and needs no profile entry; with T = 5 ms, ⌈C/T⌉ = 2 and the
  // spin entry is needed, which is missing.
  CHECK(rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options).schedulable);
  set.tasks[0].period = set.tasks[0].deadline = 5ms;
  CHECK_THROWS_WITH_AS(rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options),
                       doctest::Contains("prof.json: fork_join: cannot bound"), rtpar::InputError);
  // Only one-thread teams measured for the policy: refused as well.
  profile.fork_join = {measured(1, rtpar::WaitKind::spin, 1'000)};
  CHECK_THROWS_AS(rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options),
                  rtpar::InputError);
}

TEST_CASE("fork-join-rta: ⌈C/T⌉ of a period near 2^63 ns does not overflow (UBSan)") {
  // C + T − 1 overflowed int64 before; C/T rounded up is 1 here.
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  set.tasks.push_back(
      fj_task("long", rtpar::Duration(INT64_MAX), {{2, rtpar::Duration(INT64_MAX / 4), {}}}));
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  CHECK(plan.schedulable);
  CHECK(plan.tasks[0].cores_needed == 1);
  CHECK(plan.tasks[0].response_bound_ns == INT64_MAX / 4 * 2);
}
