// test_fork_join_rta.cpp — the fork/join RTA (fjrta.hpp), the FJOS assignment
// (plan_fork_join_rta) and the topology it plans for (topology.hpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/fjrta.hpp"
#include "analysis/stages.hpp"
#include "rtpar/overhead.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/topology.hpp"

using namespace std::chrono_literals;
using rtpar::analysis::FjGroup;
using rtpar::analysis::FjStage;
using rtpar::analysis::FjTask;

namespace {

rtpar::TaskSpec fj_task(const std::string& name, rtpar::Duration period,
                        std::vector<rtpar::SegmentSpec> segments) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = period;
  t.deadline = period;
  t.segments = std::move(segments);
  for (const auto& s : t.segments) {
    t.work += s.length * s.strands;
    t.span += s.length;
  }
  return t;
}

}  // namespace

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
  dag.nodes = {{"a", 1ms, {}, {}}, {"b", 2ms, {0}, {}}, {"c", 5ms, {0}, {}}, {"d", 1ms, {1, 2}, {}}};
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

TEST_CASE("topology: --target specs, the file's sockets and hwloc on this machine") {
  const rtpar::Topology t = rtpar::parse_target("40c4s");
  REQUIRE(t.sockets.size() == 4);
  CHECK(t.size() == 40);
  CHECK(t.sockets[1].front() == 10);
  CHECK(t.socket_of(39) == 3);
  CHECK(rtpar::parse_target("8c").sockets.size() == 1);
  for (const char* bad : {"", "40", "40c3s", "0c", "4c0s", "4c8s", "c4s", "40c4", "40c4sx"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(rtpar::parse_target(bad), rtpar::InputError);
  }
  rtpar::SystemSpec sys;
  sys.cores = {0, 1, 2, 3, 4};
  sys.sockets = 2;
  const rtpar::Topology s = rtpar::system_topology(sys);
  REQUIRE(s.sockets.size() == 2);
  CHECK(s.sockets[0] == std::vector<int>{0, 1, 2});
  CHECK(s.sockets[1] == std::vector<int>{3, 4});
  const rtpar::Topology here = rtpar::detect_topology();
  CHECK(here.size() >= 1);
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
