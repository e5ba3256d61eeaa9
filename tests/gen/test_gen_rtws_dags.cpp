// test_gen_rtws_dags.cpp — the RTWS benchmark DAG templates (src/gen/rtws_dags.hpp): small
// templates by hand (node count, work, span), the scaling to a profile's C and L̂ exactly, and
// the rtws generator's dag = "template" option.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "gen/rtws_dags.hpp"
#include "model/structure.hpp"
#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/generate.hpp"

using rtpar::Duration;
using rtpar::gen::RtwsBenchmark;

TEST_CASE("rtws dags: small templates by hand") {
  // Cholesky 3×3 tiles: POTRF ×3 (1), TRSM ×3 (3), SYRK ×3 (3), GEMM ×1 (6): 10 nodes, W = 27.
  // Critical path: POTRF0 1, TRSM(2,0) 3, GEMM(2,1) 6, TRSM(2,1) 3, SYRK(2,2) 3, POTRF2 1 = 17.
  const rtpar::DagSpec ch = rtpar::gen::rtws_template(RtwsBenchmark::cholesky, 3, 1);
  CHECK(ch.nodes.size() == 10);
  CHECK(rtpar::model::dag_work(ch).count() == 27);
  CHECK(rtpar::model::dag_span(ch).count() == 17);
  // LU 2×2: GETRF0 2, TRSM row 3, TRSM column 3, GEMM 6, GETRF1 2: W = 16, S = 2 + 3 + 6 + 2.
  const rtpar::DagSpec lu = rtpar::gen::rtws_template(RtwsBenchmark::lu, 2, 1);
  CHECK(lu.nodes.size() == 5);
  CHECK(rtpar::model::dag_work(lu).count() == 16);
  CHECK(rtpar::model::dag_span(lu).count() == 13);
  // Heat, 3 strips × 2 steps: per step 3 × 16 + a join of 1; span 2 × (16 + 1).
  const rtpar::DagSpec heat = rtpar::gen::rtws_template(RtwsBenchmark::heat, 3, 2);
  CHECK(heat.nodes.size() == 8);
  CHECK(rtpar::model::dag_work(heat).count() == 98);
  CHECK(rtpar::model::dag_span(heat).count() == 34);
}

TEST_CASE("rtws dags: scaled to a profile's C and L exactly (golden)") {
  // The public Cilkprof Cholesky n = 1600 profile: C/L̂ ≈ 34.8.
  const Duration c(18'203'954'047), l(522'396'530);
  rtpar::DagSpec dag;
  std::string why;
  REQUIRE(rtpar::gen::fit_rtws_dag(RtwsBenchmark::cholesky, c, l, 16, dag, why));
  CHECK(rtpar::model::dag_work(dag) == c);
  CHECK(rtpar::model::dag_span(dag) == l);
  // 18 × 18 tiles (the first size with W/S ≥ C/L̂): 18 + 153 + 17·18·19/6 = 1140 tiles' tasks,
  // plus the serial prefix and the remainder node.
  CHECK(dag.nodes.size() == 1142);
  // C/L̂ = 15: LU at 9 × 9 tiles (Σ (1 + m)² = 285 tasks), Heat at 16 strips × 16 steps + joins
  // (parallelism (16·16 + 1)/17 ≥ 15); each + 2.
  const std::pair<RtwsBenchmark, std::size_t> cases[] = {{RtwsBenchmark::lu, 287},
                                                         {RtwsBenchmark::heat, 274}};
  for (const auto& [b, nodes] : cases) {
    rtpar::DagSpec d;
    REQUIRE(
        rtpar::gen::fit_rtws_dag(b, Duration(3'000'000'000), Duration(200'000'000), 16, d, why));
    CHECK(rtpar::model::dag_work(d).count() == 3'000'000'000);
    CHECK(rtpar::model::dag_span(d).count() == 200'000'000);
    CHECK(d.nodes.size() == nodes);
  }
  // No parallelism: one node; too much: refused with a reason.
  REQUIRE(rtpar::gen::fit_rtws_dag(RtwsBenchmark::lu, Duration(5), Duration(5), 16, dag, why));
  CHECK(dag.nodes.size() == 1);
  CHECK_FALSE(rtpar::gen::fit_rtws_dag(RtwsBenchmark::heat, Duration(1'000'000'000),
                                       Duration(1'000), 16, dag, why));
  CHECK_FALSE(why.empty());
}

TEST_CASE("rtws dags: the generator's dag = template gives DAG tasks with the profiles' C and L") {
  rtpar::gen::Params p;
  p["dag"] = rtpar::gen::Param{"template", {}};
  p["total_util"] = rtpar::gen::Param{"20", {}};
  const auto g = rtpar::gen::generate("rtws", p, 7);
  REQUIRE_FALSE(g.set.tasks.empty());
  for (const rtpar::TaskSpec& t : g.set.tasks) {
    REQUIRE(t.dag.has_value());
    CHECK(t.work == Duration(18'203'954'047));
    CHECK(t.span == Duration(522'396'530));
  }
}

TEST_CASE("rtws dags: a fixed grain (tiles) keeps C and L exactly and sets the node count") {
  // Cholesky n = 2000's profile at 32 × 32 tiles: n + n(n−1)/2 + (n−1)n(n+1)/6 = 32 + 496 + 5456
  // = 5984 tile tasks (named t…), plus at most the serial prefix and the remainder node.
  const Duration c(36'271'665'708), l(590'180'765);
  rtpar::DagSpec dag;
  std::string why;
  REQUIRE(rtpar::gen::fit_rtws_dag(RtwsBenchmark::cholesky, c, l, 16, dag, why, 32));
  CHECK(rtpar::model::dag_work(dag) == c);
  CHECK(rtpar::model::dag_span(dag) == l);
  const auto tiles = std::count_if(dag.nodes.begin(), dag.nodes.end(),
                                   [](const rtpar::DagNode& n) { return n.name[0] == 't'; });
  CHECK(tiles == 5984);
  CHECK(dag.nodes.size() <= 5986);
  // LU at 32: Σ_{m=1}^{32} m² = 11440 tasks; Heat at 128 strips × 64 steps: 64 × 129 = 8256.
  rtpar::DagSpec lu;
  REQUIRE(rtpar::gen::fit_rtws_dag(RtwsBenchmark::lu, Duration(95'173'138'098),
                                   Duration(967'818'318), 16, lu, why, 32));
  CHECK(rtpar::model::dag_work(lu).count() == 95'173'138'098);
  CHECK(rtpar::model::dag_span(lu).count() == 967'818'318);
  CHECK(lu.nodes.size() >= 11440);
  CHECK(lu.nodes.size() <= 11442);
  rtpar::DagSpec heat;
  REQUIRE(rtpar::gen::fit_rtws_dag(RtwsBenchmark::heat, Duration(35'746'536'983),
                                   Duration(385'926'636), 64, heat, why, 128));
  CHECK(rtpar::model::dag_work(heat).count() == 35'746'536'983);
  CHECK(rtpar::model::dag_span(heat).count() == 385'926'636);
  CHECK(heat.nodes.size() >= 8256);
  CHECK(heat.nodes.size() <= 8258);
  // Too coarse for C/L̂ ≈ 61 (2 × 2 tiles: W/S = 16/13), or too many nodes: refused with a reason.
  CHECK_FALSE(rtpar::gen::fit_rtws_dag(RtwsBenchmark::cholesky, c, l, 16, dag, why, 2));
  CHECK(why.find("parallelism") != std::string::npos);
  CHECK_FALSE(rtpar::gen::fit_rtws_dag(RtwsBenchmark::cholesky, c, l, 16, dag, why, 64));
  CHECK(why.find("nodes") != std::string::npos);
}
