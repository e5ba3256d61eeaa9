// test_decomposition.cpp — RT-OpenMP decomposition (decompose.hpp) and plan_decomposition, on
// the worked example of RT-OpenMP Fig. 2, hand-derived tasks and boundaries. The partitioning
// itself (FBB-FFD, RBF*) and the randomized simulation check: test_fbb_ffd.cpp.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "analysis/bounds/fbb_ffd.hpp"
#include "analysis/bounds/segment_decomposition.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/topology.hpp"
#include "support/fork_join_pair.hpp"

using namespace std::chrono_literals;
using rtpar::Duration;
using rtpar::SegmentSpec;
using rtpar::analysis::decompose;

namespace {

SegmentSpec seg(std::int64_t strands, Duration length) { return SegmentSpec{strands, length, {}}; }

// task is a segmented task with D = T (support/fork_join_pair.hpp).
rtpar::TaskSpec task(const std::string& name, Duration period, std::vector<SegmentSpec> segments) {
  return rtpar::testing::fj_task(name, period, std::move(segments));
}

rtpar::TaskSpec sequential(const std::string& name, Duration period, Duration work) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = period;
  t.deadline = period;
  t.work = work;
  t.span = work;
  return t;
}

rtpar::TaskSet on_cores(std::vector<int> cores, rtpar::FitKind fit = rtpar::FitKind::fbb_ffd) {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = std::move(cores);
  set.system.planner = rtpar::PlannerKind::decomposition;
  set.system.fit = fit;
  return set;
}

std::vector<int> cores_of(const rtpar::SegmentPlan& s) {
  std::vector<int> out;
  for (const auto& strand : s.strands) out.push_back(strand.core);
  return out;
}

std::vector<int> priorities_of(const rtpar::SegmentPlan& s) {
  std::vector<int> out;
  for (const auto& strand : s.strands) out.push_back(strand.priority);
  return out;
}

}  // namespace

TEST_CASE("decomposition: RT-OpenMP Fig. 2, task 1 (all segments heavy)") {
  // Task 1 of Fig. 2, reconstructed from the paper's numbers (unit = 1 ms): T = 10, segments
  // ⟨e, m⟩ = ⟨0.6, 1⟩, ⟨0.2, 4⟩, ⟨0.4, 1⟩, so C = 1.8, P = 1.2.
  //   threshold 2.5·C/(T − 2.5·P) = 4.5/7 ≈ 0.643 < m for every segment → all heavy, P^ℓ = C^ℓ = 0
  //   l_j = m_j·T/(2.5·C) − 1: 1.222, 7.889, 1.222 (the paper's 1.22, 7.88, 1.22)
  //   d_j = 2.5·e_j·(1 + l_j) = e_j·m_j·T/C: 10/3, 40/9, 20/9 ms (the paper's deadlines)
  //   boundaries (floored to ns): 3333333, 3333333 + 4444444.4 → 7777777, 10000000
  std::string why;
  const auto d = decompose({seg(1, 600us), seg(4, 200us), seg(1, 400us)}, 10'000'000, why);
  REQUIRE(d);
  CHECK(d->paper_rule);
  const auto& s = d->segments;
  REQUIRE(s.size() == 3);
  CHECK(s[0].heavy);
  CHECK(s[1].heavy);
  CHECK(s[2].heavy);
  CHECK(s[0].offset == 0);
  CHECK(s[0].window == 3'333'333);
  CHECK(s[1].offset == 3'333'333);
  CHECK(s[1].window == 7'777'777 - 3'333'333);
  CHECK(s[2].offset == 7'777'777);
  CHECK(s[2].offset + s[2].window == 10'000'000);  // the last window ends exactly at D
}

TEST_CASE("decomposition: all-light segments share the deadline in proportion to e") {
  // One strand per segment, C = P = 3 ms, D = 10 ms: threshold 2.5·3/(10 − 7.5) = 3 ≥ m = 1 →
  // all light; d_j = e_j·D/P: 1 ms → 10/3 ms, 2 ms → 20/3 ms; boundary ⌊10/3 ms⌋ = 3333333 ns.
  std::string why;
  const auto d = decompose({seg(1, 1ms), seg(1, 2ms)}, 10'000'000, why);
  REQUIRE(d);
  CHECK(d->paper_rule);
  CHECK_FALSE(d->segments[0].heavy);
  CHECK_FALSE(d->segments[1].heavy);
  CHECK(d->segments[0].window == 3'333'333);
  CHECK(d->segments[1].offset == 3'333'333);
  CHECK(d->segments[1].window == 10'000'000 - 3'333'333);
}

TEST_CASE("decomposition: mixed heavy and light segments; light ones get exactly 2.5·e") {
  // D = 20, segments ⟨1, 1⟩, ⟨1, 8⟩: C = 9, P = 2, threshold 2.5·9/(20 − 5) = 1.5:
  // m = 1 light, m = 8 heavy. P^ℓ = 1, C^ℓ = 1: light d = 2.5; heavy d = e·m·(D − 2.5·P^ℓ)/(C −
  // C^ℓ) = 8·17.5/8 = 17.5; 2.5 + 17.5 = 20 = D.
  std::string why;
  const auto d = decompose({seg(1, 1ms), seg(8, 1ms)}, 20'000'000, why);
  REQUIRE(d);
  CHECK_FALSE(d->segments[0].heavy);
  CHECK(d->segments[1].heavy);
  CHECK(d->segments[0].window == 2'500'000);
  CHECK(d->segments[1].window == 17'500'000);
}

TEST_CASE("decomposition: boundaries of the slack L = D − 2.5·P") {
  std::string why;
  // 2.5·P = D exactly (P = 4, D = 10): the paper's slack is 0 and its threshold undefined; rtpar
  // takes the limit L → 0+ (all light, d = e·D/P = 10).
  auto d = decompose({seg(2, 4ms)}, 10'000'000, why);
  REQUIRE(d);
  CHECK_FALSE(d->paper_rule);
  CHECK_FALSE(d->segments[0].heavy);
  CHECK(d->segments[0].window == 10'000'000);
  // 1 ns more: 2·D − 5·P = 2 > 0, the paper's rule; threshold 5·C/(2D − 5P) = 40e6/2 ≫ m = 2.
  d = decompose({seg(2, 4ms)}, 10'000'001, why);
  REQUIRE(d);
  CHECK(d->paper_rule);
  CHECK_FALSE(d->segments[0].heavy);
  CHECK(d->segments[0].window == 10'000'001);
  // D = L (zero slack even on the real machine): every window equals its segment's length.
  d = decompose({seg(1, 2ms), seg(2, 3ms)}, 5'000'000, why);
  REQUIRE(d);
  CHECK_FALSE(d->paper_rule);
  CHECK(d->segments[0].window == 2'000'000);
  CHECK(d->segments[1].offset == 2'000'000);
  CHECK(d->segments[1].window == 3'000'000);
  // L > D: infeasible.
  CHECK_FALSE(decompose({seg(2, 4ms)}, 3'999'999, why));
  CHECK(why.find("critical path") != std::string::npos);
}

TEST_CASE("plan_decomposition: a 2-segment task decomposed and placed by hand") {
  // T = D = 20 ms, segments ⟨e, m⟩ = ⟨2 ms, 1⟩, ⟨1 ms, 6⟩: C = 8, P = 3, L = 20 − 7.5 = 12.5,
  // threshold 2.5·8/12.5 = 1.6: segment 0 (m = 1) light, segment 1 (m = 6) heavy; C^ℓ = P^ℓ = 2.
  //   light:  d_0 = 2.5·2 = 5 ms                     → offset 0, deadline 5 ms
  //   heavy:  l_1 = 6·(20 − 2.5·2)/(2.5·(8 − 2)) − 1 = 90/15 − 1 = 5, d_1 = 2.5·1·6 = 15 ms
  //                                                  → offset 5 ms, deadline 20 ms
  // Placement (fbb-ffd, 3 cores): the task is alone, so its own segment 0 never interferes with
  // segment 1; the six 1 ms strands of segment 1 pile up on core 0 while 15 − W ≥ 1 (W ≤ 5 ms).
  // Priorities on core 0: segment 0 (window 5) 90, segment 1 (window 15) 89.
  auto set = on_cores({0, 1, 2});
  set.tasks.push_back(task("a", 20ms, {seg(1, 2ms), seg(6, 1ms)}));
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  CHECK(plan.planner == rtpar::PlannerKind::decomposition);
  CHECK(plan.schedulable);
  REQUIRE(plan.tasks.size() == 1);
  const rtpar::TaskPlan& a = plan.tasks[0];
  REQUIRE(a.segments.size() == 2);
  CHECK(a.segments[0].offset_ns == 0);
  CHECK(a.segments[0].deadline_ns == 5'000'000);
  CHECK(a.segments[0].length_ns == 2'000'000);
  CHECK(a.segments[1].offset_ns == 5'000'000);
  CHECK(a.segments[1].deadline_ns == 20'000'000);
  CHECK(cores_of(a.segments[1]) == std::vector<int>(6, 0));
  CHECK(priorities_of(a.segments[0]) == std::vector<int>{90});
  CHECK(priorities_of(a.segments[1]) == std::vector<int>(6, 89));
  CHECK(a.cores == std::vector<int>{0});
  CHECK(a.cores_needed == 1);
  CHECK(a.priority == 90);
  CHECK(a.response_bound_ns == 20'000'000);
  CHECK(a.utilization == doctest::Approx(0.4));
  CHECK_FALSE(a.heavy);  // C = 8 ≤ D = 20
  CHECK_FALSE(a.reason);

  // Worst-fit on the same cores: segment 0 → core 0 (all tie); segment 1 spreads: loads are
  // only its own strands already there (W), so cores 0, 1, 2, 0, 1, 2. Priorities per core:
  // core 0 holds both segments (90, 89); cores 1 and 2 only segment 1 (90).
  set.system.fit = rtpar::FitKind::worst_fit;
  const rtpar::Plan w = rtpar::plan_taskset(set);
  CHECK(w.schedulable);
  CHECK(cores_of(w.tasks[0].segments[1]) == std::vector<int>{0, 1, 2, 0, 1, 2});
  CHECK(priorities_of(w.tasks[0].segments[1]) == std::vector<int>{89, 90, 90, 89, 90, 90});
  CHECK(w.tasks[0].cores == std::vector<int>{0, 1, 2});
  CHECK(w.tasks[0].cores_needed == 3);
}

TEST_CASE("plan_decomposition: RT-OpenMP Fig. 2 on 3 cores (worst-fit and first-fit)") {
  // Task 1 as above (T = 10 ms); task 2: one strand of 16/21 ms (761905 ns), T = D = 8 ms: its
  // only segment is heavy and gets the whole deadline, d = 8 ms (the paper: "3.2·2.5·1 = 8").
  // Worst-fit (Fig. 2(c)), visiting s_1^6 (20/9), s_1^1 (10/3), s_1^2..5 (40/9), s_2^1 (8):
  // s6 → core 0; s1 → core 0 (task 1 alone: its other segments never interfere); s2 → core 0;
  // s3 → core 1 and s4 → core 2 (core 0 carries s2 of the same segment); s5 → core 0 (all tie);
  // s_2^1 → core 1 (cores 1 and 2 carry 0.2 ms of task 1 each, core 0 1.8 ms) — the table's
  // cores 1,1,2,3,1,1,2 counted from 1. Priorities keep the table's order per core (its global
  // 1..4, 1 = highest): core 0: s6 90, s1 89, s2/s5 88; core 1: s3 90, s_2^1 89; core 2: s4 90.
  auto set = on_cores({0, 1, 2}, rtpar::FitKind::worst_fit);
  set.tasks.push_back(task("t1", 10ms, {seg(1, 600us), seg(4, 200us), seg(1, 400us)}));
  set.tasks.push_back(task("t2", 8ms, {seg(1, Duration(761'905))}));
  const rtpar::Plan w = rtpar::plan_taskset(set);
  CHECK(w.schedulable);
  CHECK(cores_of(w.tasks[0].segments[0]) == std::vector<int>{0});
  CHECK(cores_of(w.tasks[0].segments[1]) == std::vector<int>{0, 1, 2, 0});
  CHECK(cores_of(w.tasks[0].segments[2]) == std::vector<int>{0});
  CHECK(cores_of(w.tasks[1].segments[0]) == std::vector<int>{1});
  CHECK(priorities_of(w.tasks[0].segments[0]) == std::vector<int>{89});
  CHECK(priorities_of(w.tasks[0].segments[1]) == std::vector<int>{88, 90, 90, 88});
  CHECK(priorities_of(w.tasks[0].segments[2]) == std::vector<int>{90});
  CHECK(priorities_of(w.tasks[1].segments[0]) == std::vector<int>{89});
  CHECK(w.tasks[1].segments[0].deadline_ns == 8'000'000);
  // First-fit (FBB-FFD's standard): "all strands in this example will be assigned to core 1".
  set.system.fit = rtpar::FitKind::fbb_ffd;
  const rtpar::Plan f = rtpar::plan_taskset(set);
  CHECK(f.schedulable);
  for (const auto& t : f.tasks) {
    CHECK(t.cores == std::vector<int>{0});
  }
}

TEST_CASE("plan_decomposition: a D = L task needs exactly all cores") {
  // Segments ⟨2 ms, 1⟩, ⟨3 ms, 2⟩ with D = T = 5 ms = L: windows 2 and 3 ms, no slack at all.
  // Segment 1's two strands need two cores (3 + 3 > 3 on one); alone, segment 0 is complete at
  // segment 1's release and does not count.
  auto set = on_cores({4, 7});
  set.tasks.push_back(task("tight", 5ms, {seg(1, 2ms), seg(2, 3ms)}));
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  CHECK(plan.schedulable);
  CHECK(plan.cores == std::vector<int>{4, 7});
  CHECK(cores_of(plan.tasks[0].segments[1]) == std::vector<int>{4, 7});
  CHECK(plan.tasks[0].cores_needed == 2);
  REQUIRE_FALSE(plan.notes.empty());
  CHECK(plan.notes[0].find("tight") != std::string::npos);
  // One core fewer: segment 1's second strand fits nowhere.
  set.system.cores = {4};
  const rtpar::Plan one = rtpar::plan_taskset(set);
  CHECK_FALSE(one.schedulable);
  REQUIRE(one.tasks[0].reason);
  CHECK(one.tasks[0].reason->find("segment 1: 1 of 2 strand(s)") != std::string::npos);
  CHECK(one.tasks[0].segments[1].strands[1].core == -1);
  CHECK_FALSE(one.tasks[0].response_bound_ns);
}

TEST_CASE("plan_decomposition: zero capacity left, and a second core") {
  // full: sequential C = D = T = 10 ms fills core 0 (window 10 = e). late: C = 1 ms, T = D =
  // 20 ms, visited after it: RBF*(full, 20) = 10 + ⌈20·10/10⌉ = 30 > 20 − 1 → not on core 0.
  auto set = on_cores({0});
  set.tasks.push_back(sequential("full", 10ms, 10ms));
  set.tasks.push_back(sequential("late", 20ms, 1ms));
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  CHECK_FALSE(plan.schedulable);
  CHECK_FALSE(plan.tasks[0].reason);
  CHECK(plan.tasks[0].response_bound_ns == 10'000'000);
  REQUIRE(plan.tasks[1].reason);
  CHECK(plan.tasks[1].reason->find("fit on no core") != std::string::npos);
  set.system.cores = {0, 1};
  const rtpar::Plan two = rtpar::plan_taskset(set);
  CHECK(two.schedulable);
  CHECK(two.tasks[1].cores == std::vector<int>{1});
  CHECK(two.tasks[1].priority == 90);  // alone on its core: the top of the per-core ranking
}

TEST_CASE("plan_decomposition: equal deadlines rank by file order, distinct on the core") {
  // Three sequential 1 ms tasks with D = T = 10 ms on one core: windows equal; file order ranks
  // them 90, 89, 88. Each passes: the k-th sees k·(1 + ⌈10·1/10⌉) = 2k ≤ 10 − 1.
  auto set = on_cores({3});
  set.tasks.push_back(sequential("b", 10ms, 1ms));
  set.tasks.push_back(sequential("a", 10ms, 1ms));
  set.tasks.push_back(sequential("c", 10ms, 1ms));
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  CHECK(plan.schedulable);
  CHECK(plan.tasks[0].priority == 90);
  CHECK(plan.tasks[1].priority == 89);
  CHECK(plan.tasks[2].priority == 88);
  for (const auto& t : plan.tasks) CHECK(t.cores == std::vector<int>{3});
}

TEST_CASE("plan_decomposition: structure — none, a DAG, and an ignored priority") {
  // A parallel task without structure cannot be decomposed.
  auto set = on_cores({0, 1});
  rtpar::TaskSpec blob = sequential("blob", 10ms, 4ms);
  blob.span = 2ms;
  set.tasks.push_back(blob);
  const rtpar::Plan bad = rtpar::plan_taskset(set);
  CHECK_FALSE(bad.schedulable);
  REQUIRE(bad.tasks[0].reason);
  CHECK(bad.tasks[0].reason->find("needs [[task.segment]] or [[task.node]] structure") !=
        std::string::npos);
  CHECK(bad.tasks[0].segments.empty());

  // DAG a(2) → {b(1), c(3)} → d(1) (ms): earliest starts a 0, b 2, c 2, d 5; cuts 0, 2, 3, 5, 6
  // give the synchronous form ⟨2, 1⟩ ⟨1, 2⟩ ⟨2, 1⟩ ⟨1, 1⟩ (C = 7, L = 6), T = D = 20 ms.
  rtpar::TaskSpec dag = sequential("dag", 20ms, 7ms);
  dag.span = 6ms;
  dag.dag = rtpar::DagSpec{};
  dag.dag->nodes = {
      {"a", 2ms, {}, {}}, {"b", 1ms, {0}, {}}, {"c", 3ms, {0}, {}}, {"d", 1ms, {1, 2}, {}}};
  dag.priority = 50;
  set.tasks[0] = dag;
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  CHECK(plan.schedulable);
  REQUIRE(plan.tasks[0].segments.size() == 4);
  CHECK(plan.tasks[0].segments[1].strands.size() == 2);
  CHECK(plan.tasks[0].segments[3].deadline_ns == 20'000'000);
  bool noted = false;
  for (const auto& note : plan.notes)
    noted = noted || note.find("priority = 50") != std::string::npos;
  CHECK(noted);
  CHECK(plan.tasks[0].priority != 50);
}

TEST_CASE("plan_decomposition: a target machine replaces the file's cores") {
  auto set = on_cores({0});
  set.tasks.push_back(task("wide", 10ms, {seg(4, 2ms)}));
  // 2.5·2 = 5 < 10: paper rule, one light segment, window 10 ms; 4 strands of 2 ms fit one core.
  rtpar::Topology target;
  target.sockets = {{0, 1}, {2, 3}};
  rtpar::PlanOptions options;
  options.target = &target;
  const rtpar::Plan plan = rtpar::plan_taskset(set, options);
  CHECK(plan.cores == std::vector<int>{0, 1, 2, 3});
  CHECK(plan.schedulable);
}
