// test_decomposition.cpp — RT-OpenMP decomposition (decompose.hpp), FBB-FFD (fbb_ffd.hpp) and
// plan_decomposition, on the worked example of rt-openmp.md Fig. 2 and on boundaries.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/decompose.hpp"
#include "analysis/fbb_ffd.hpp"
#include "rtpar/plan.hpp"

using namespace std::chrono_literals;
using rtpar::Duration;
using rtpar::SegmentSpec;
using rtpar::analysis::decompose;

namespace {

SegmentSpec seg(std::int64_t strands, Duration length) { return SegmentSpec{strands, length, {}}; }

rtpar::TaskSpec task(const std::string& name, Duration period, std::vector<SegmentSpec> segments) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = period;
  t.deadline = period;
  t.segments = std::move(segments);
  for (const SegmentSpec& s : t.segments) {
    t.work += s.length * s.strands;
    t.span += s.length;
  }
  return t;
}

}  // namespace

TEST_CASE("decomposition: rt-openmp.md Fig. 2, task 1 (all segments heavy)") {
  // Task 1 of Fig. 2, reconstructed from the paper's numbers (unit = 1 ms): T = 10, segments
  // ⟨e, m⟩ = ⟨0.6, 1⟩, ⟨0.2, 4⟩, ⟨0.4, 1⟩, so C = 1.8, P = 1.2.
  //   threshold 2.5·C/(T − 2.5·P) = 4.5/7 ≈ 0.643 < m for every segment → all heavy, P^ℓ = C^ℓ = 0
  //   l_j = m_j·T/(2.5·C) − 1: 1.222, 7.889, 1.222 (the paper's 1.22, 7.88, 1.22)
  //   d_j = 2.5·e_j·(1 + l_j) = e_j·m_j·T/C: 10/3, 40/9, 20/9 ms (the paper's deadlines)
  //   boundaries (floored to ns): 3333333, 3333333 + 4444444.4 → 7777777, 10000000
  std::string why;
  const auto d = decompose({seg(1, 600us), seg(4, 200us), seg(1, 400us)}, 10'000'000, why);
  REQUIRE(d);
  REQUIRE(d->size() == 3);
  CHECK((*d)[0].heavy);
  CHECK((*d)[1].heavy);
  CHECK((*d)[2].heavy);
  CHECK((*d)[0].offset == 0);
  CHECK((*d)[0].window == 3'333'333);
  CHECK((*d)[1].offset == 3'333'333);
  CHECK((*d)[1].window == 7'777'777 - 3'333'333);
  CHECK((*d)[2].offset == 7'777'777);
  CHECK((*d)[2].offset + (*d)[2].window == 10'000'000);  // the last window ends exactly at D
}

TEST_CASE("decomposition: all-light segments share the deadline in proportion to e") {
  // One strand per segment, C = P = 3 ms, D = 10 ms: threshold 2.5·3/(10 − 7.5) = 3 ≥ m = 1 →
  // all light; d_j = e_j·D/P: 1 ms → 10/3 ms, 2 ms → 20/3 ms; boundary ⌊10/3 ms⌋ = 3333333 ns.
  std::string why;
  const auto d = decompose({seg(1, 1ms), seg(1, 2ms)}, 10'000'000, why);
  REQUIRE(d);
  CHECK_FALSE((*d)[0].heavy);
  CHECK_FALSE((*d)[1].heavy);
  CHECK((*d)[0].window == 3'333'333);
  CHECK((*d)[1].offset == 3'333'333);
  CHECK((*d)[1].window == 10'000'000 - 3'333'333);
}

TEST_CASE("decomposition: mixed heavy and light segments; light ones get exactly 2.5·e") {
  // D = 20, segments ⟨1, 1⟩, ⟨1, 8⟩: C = 9, P = 2, threshold 2.5·9/(20 − 5) = 1.5:
  // m = 1 light, m = 8 heavy. P^ℓ = 1, C^ℓ = 1: light d = 2.5; heavy d = e·m·(D − 2.5·P^ℓ)/(C −
  // C^ℓ) = 8·17.5/8 = 17.5; 2.5 + 17.5 = 20 = D.
  std::string why;
  const auto d = decompose({seg(1, 1ms), seg(8, 1ms)}, 20'000'000, why);
  REQUIRE(d);
  CHECK_FALSE((*d)[0].heavy);
  CHECK((*d)[1].heavy);
  CHECK((*d)[0].window == 2'500'000);
  CHECK((*d)[1].window == 17'500'000);
}

TEST_CASE("decomposition: no slack when 2.5·P ≥ D (including D = L)") {
  std::string why;
  CHECK_FALSE(decompose({seg(2, 4ms)}, 10'000'000, why));  // 2.5·4 = 10 = D: boundary, rejected
  CHECK(why.find("no slack") != std::string::npos);
  CHECK_FALSE(decompose({seg(2, 4ms)}, 4'000'000, why));  // D = L
  CHECK(decompose({seg(2, 4ms)}, 10'000'001, why));       // 1 ns of slack is enough
}

TEST_CASE("fbb-ffd: Fig. 2(c) worst-fit placement and first-fit packing") {
  // Strands of Fig. 2 in ns (×1e6 of the paper's units): task 1 as above, task 2 one strand of
  // 16/21 ms with T = D = 8 ms (its single heavy segment gets the whole deadline, d = 8).
  std::vector<rtpar::analysis::FbbStrand> strands = {
      {0, 0, 600'000, 0, 3'333'333, 10'000'000},
      {0, 1, 200'000, 3'333'333, 4'444'444, 10'000'000},
      {0, 1, 200'000, 3'333'333, 4'444'444, 10'000'000},
      {0, 1, 200'000, 3'333'333, 4'444'444, 10'000'000},
      {0, 1, 200'000, 3'333'333, 4'444'444, 10'000'000},
      {0, 2, 400'000, 7'777'777, 2'222'223, 10'000'000},
      {1, 0, 761'905, 0, 8'000'000, 8'000'000}};
  // Worst-fit (the paper's Fig. 2(c)): s6 → core 1; s1 → core 1 (other segments of its own task
  // never interfere, so core 1 still has load 0 and wins the tie); s2 → core 1; s3 → core 2 and
  // s4 → core 3 (core 1 carries s2 of the same segment); s5 → core 1 (all three tie); task 2 →
  // core 2 (cores 2 and 3 carry one task-1 strand each, core 1 four).
  const std::vector<int> worst = rtpar::analysis::fbb_place(strands, 3, rtpar::FitKind::worst_fit);
  CHECK(worst == std::vector<int>{0, 0, 1, 2, 0, 0, 1});
  // First-fit: everything fits on core 1 ("all strands in this example will be assigned to core
  // 1", rt-openmp.md §IV-A).
  const std::vector<int> first = rtpar::analysis::fbb_place(strands, 3, rtpar::FitKind::fbb_ffd);
  CHECK(first == std::vector<int>(7, 0));
}

TEST_CASE("fbb-ffd: a strand that fits nowhere is reported as -1; zero cores place nothing") {
  std::vector<rtpar::analysis::FbbStrand> strands = {{0, 0, 6, 0, 10, 10}, {1, 0, 6, 0, 10, 10}};
  // One core: the second strand sees RBF* = 6 + ⌈10·6/10⌉ = 12 > 10 − 6.
  CHECK(rtpar::analysis::fbb_place(strands, 1, rtpar::FitKind::fbb_ffd) == std::vector<int>{0, -1});
  CHECK(rtpar::analysis::fbb_place(strands, 2, rtpar::FitKind::fbb_ffd) == std::vector<int>{0, 1});
  CHECK(rtpar::analysis::fbb_place(strands, 0, rtpar::FitKind::fbb_ffd) ==
        std::vector<int>{-1, -1});
}

TEST_CASE("plan_decomposition: a heavy task shares cores with a light one") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  set.system.planner = rtpar::PlannerKind::decomposition;
  set.tasks.push_back(task("fusion", 10ms, {seg(1, 500us), seg(4, 1ms), seg(1, 500us)}));
  rtpar::TaskSpec control;
  control.name = "control";
  control.period = 10ms;
  control.deadline = 5ms;
  control.work = 1ms;
  control.span = 1ms;
  set.tasks.push_back(control);
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  CHECK(plan.planner == rtpar::PlannerKind::decomposition);
  REQUIRE(plan.tasks.size() == 2);
  CHECK(plan.schedulable);
  const rtpar::TaskPlan& fusion = plan.tasks[0];
  REQUIRE(fusion.segments.size() == 3);
  CHECK(fusion.segments[1].strands.size() == 4);
  CHECK(fusion.segments[2].deadline_ns == 10'000'000);
  CHECK(fusion.segments[1].offset_ns == fusion.segments[0].deadline_ns);
  CHECK(fusion.response_bound_ns == 10'000'000);
  // Priorities are per segment and deadline-monotonic: shorter windows rank higher.
  for (const auto& s : fusion.segments) {
    for (const auto& strand : s.strands) CHECK(strand.core >= 0);
  }
  // A parallel task without structure cannot be decomposed.
  set.tasks[0].segments.clear();
  const rtpar::Plan bad = rtpar::plan_taskset(set);
  CHECK_FALSE(bad.schedulable);
  REQUIRE(bad.tasks[0].reason);
  CHECK(bad.tasks[0].reason->find("structure") != std::string::npos);
}
