// test_interference_charge.cpp — the planners charging the kernel's server
// (src/analysis/planners/interference_charge.hpp, PlanOptions::interference).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "support/overhead_fixtures.hpp"

namespace {

const std::string kDemo = rtpar::testing::demo_set();

rtpar::PlanOptions charged(std::int64_t q, std::int64_t p) {
  rtpar::PlanOptions o;
  o.interference.state = "charged";
  o.interference.budget_ns = q;
  o.interference.period_ns = p;
  o.interference.source = "test";
  return o;
}

bool has_note(const rtpar::Plan& plan, const std::string& text) {
  for (const std::string& n : plan.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("interference: federated heavy task charged with m·I(R), and refused under 50ms/1s") {
  const rtpar::TaskSet set = rtpar::parse_taskset(kDemo, "<demo>");
  const rtpar::Plan plain = rtpar::plan_with(rtpar::PlannerKind::federated, set);
  REQUIRE(plain.schedulable);
  CHECK(*plain.tasks[0].response_bound_ns == 13'500'000);
  CHECK(plain.interference.state == "unread");

  const rtpar::Plan small =
      rtpar::plan_with(rtpar::PlannerKind::federated, set, charged(1'000'000, 1'000'000'000));
  REQUIRE(small.schedulable);
  CHECK(*small.tasks[0].response_bound_ns == 17'500'000);
  CHECK(small.interference.state == "charged");
  CHECK(has_note(small, "kernel interference charged"));

  const rtpar::Plan linux_default =
      rtpar::plan_with(rtpar::PlannerKind::federated, set, charged(50'000'000, 1'000'000'000));
  CHECK_FALSE(linux_default.schedulable);
  REQUIRE(linux_default.tasks[0].reason);
  CHECK(linux_default.tasks[0].reason->find("kernel's server") != std::string::npos);

  // A stated (not charged) interference changes no bound and is carried into the plan.
  rtpar::PlanOptions stated = charged(50'000'000, 1'000'000'000);
  stated.interference.state = "stated";
  const rtpar::Plan st = rtpar::plan_with(rtpar::PlannerKind::federated, set, stated);
  CHECK(st.schedulable);
  CHECK(st.interference.state == "stated");
  CHECK(st.interference.budget_ns == 50'000'000);
}

TEST_CASE("interference: light tasks re-analysed with the server above them") {
  const rtpar::TaskSet set = rtpar::parse_taskset(R"(
[system]
cores = [0]
[[task]]
name = "a"
period = "10ms"
work = "2ms"
[[task]]
name = "b"
period = "100ms"
work = "10ms"
)",
                                                  "<light>");
  // a: 2 + I = 2 + 2·1 = 4 ms. b: 10 + ⌈R/10⌉·2 + server(⌈R/100⌉·1 + 1) → 10+4+2 = 16, 10+4+2=16.
  const rtpar::Plan plan =
      rtpar::plan_with(rtpar::PlannerKind::federated, set, charged(1'000'000, 100'000'000));
  REQUIRE(plan.schedulable);
  CHECK(*plan.tasks[0].response_bound_ns == 4'000'000);
  CHECK(*plan.tasks[1].response_bound_ns == 16'000'000);
  const rtpar::Plan refused =
      rtpar::plan_with(rtpar::PlannerKind::federated, set, charged(5'000'000, 100'000'000));
  CHECK_FALSE(refused.schedulable);
  CHECK(refused.tasks[0].reason);  // 2 + 10 > 10
}

TEST_CASE("interference: federated places light tasks with the server, not only re-checks them") {
  // a: C = 5, b: C = 4, T = D = 10 ms, server 1 ms every 10 ms. Together on one core, the lower
  // of the two would need w = 9 + ⌈w/10⌉ + 1 = 11 > 10 ms; first-fit with the server puts b on
  // the second core: R_a = 5 + 1 + 1 = 7 ms, R_b = 4 + 1 + 1 = 6 ms. (Placed without the server
  // and re-checked, b shared a's core and was refused.)
  const rtpar::TaskSet set = rtpar::parse_taskset(R"(
[system]
cores = [0, 1]
[[task]]
name = "a"
period = "10ms"
work = "5ms"
[[task]]
name = "b"
period = "10ms"
work = "4ms"
)",
                                                  "<two>");
  const rtpar::Plan plain = rtpar::plan_with(rtpar::PlannerKind::federated, set);
  REQUIRE(plain.schedulable);
  CHECK(plain.tasks[0].cores == plain.tasks[1].cores);  // one core holds both: 5 + 4 ≤ 10
  for (const auto kind : {rtpar::PlannerKind::federated, rtpar::PlannerKind::federated_ws}) {
    const rtpar::Plan p = rtpar::plan_with(kind, set, charged(1'000'000, 10'000'000));
    REQUIRE(p.schedulable);
    CHECK(p.tasks[0].cores == std::vector<int>{0});
    CHECK(p.tasks[1].cores == std::vector<int>{1});
    CHECK(*p.tasks[0].response_bound_ns == 7'000'000);
    CHECK(*p.tasks[1].response_bound_ns == 6'000'000);
    CHECK(has_note(p, "light tasks were placed by first-fit with it"));
  }
}

TEST_CASE("interference: federated gives a heavy task more cores when the server needs them") {
  // C = 3 + 18·3 = 57 ms, L = 6 ms, D = 20 ms: n = ⌈51/14⌉ = 4, R = 6 + 12.75 = 18.75 ms. With
  // 0.2 ms every 1 s (I(R) = 0.4 ms): on 4 cores 18.75 + 4·0.4 = 20.35 > 20; on 5 cores
  // 6 + 10.2 + 5·0.4 = 18.2 ms.
  const rtpar::TaskSet set = rtpar::parse_taskset(R"(
[system]
cores = 8
[[task]]
name = "wide"
period = "20ms"
kernel = "segments"
args.segments = [{ strands = 1, length = "3ms" }, { strands = 18, length = "3ms" }]
)",
                                                  "<wide>");
  const rtpar::Plan plain = rtpar::plan_with(rtpar::PlannerKind::federated, set);
  REQUIRE(plain.schedulable);
  CHECK(plain.tasks[0].cores_needed == 4);
  CHECK(*plain.tasks[0].response_bound_ns == 18'750'000);
  const rtpar::Plan p =
      rtpar::plan_with(rtpar::PlannerKind::federated, set, charged(200'000, 1'000'000'000));
  REQUIRE(p.schedulable);
  CHECK(p.tasks[0].cores_needed == 5);
  CHECK(p.tasks[0].cores.size() == 5);
  CHECK(*p.tasks[0].response_bound_ns == 18'200'000);
  // A server no core count can absorb: refused with the server's reason.
  const rtpar::Plan big =
      rtpar::plan_with(rtpar::PlannerKind::federated, set, charged(2'000'000, 1'000'000'000));
  CHECK_FALSE(big.schedulable);
  REQUIRE(big.tasks[0].reason);
  CHECK(big.tasks[0].reason->find("kernel's server") != std::string::npos);
}

TEST_CASE("interference: partitioned charges |K|·I(R)") {
  const rtpar::TaskSet set = rtpar::parse_taskset(R"(
[system]
cores = [0, 1]
planner = "partitioned"
[[task]]
name = "p"
period = "10ms"
work = "2ms"
priority = 50
places = [0]
[[task]]
name = "e"
period = "10ms"
work = "2ms"
places = [1]
)",
                                                  "<part>");
  const rtpar::Plan plan =
      rtpar::plan_with(rtpar::PlannerKind::partitioned, set, charged(1'000'000, 100'000'000));
  REQUIRE(plan.schedulable);
  CHECK(*plan.tasks[0].response_bound_ns == 4'000'000);  // 2 + 2·1 ms
  CHECK(*plan.tasks[1].response_bound_ns == 4'000'000);  // EDF: the sufficient bound, not D
  CHECK(has_note(plan, "kernel interference charged"));
}

TEST_CASE("interference: fork-join-rta charges the server in every stage's busy window") {
  // The demo on 2 cores (cores[0] = a, cores[1] = b; stage 1: 3 strands of 3 ms per core), with
  // 1 ms every 1 s: a window w holds at most Q·⌈(w + P − Q)/P⌉ = 2 ms of it for w ≤ 1 s + 1 ms.
  //   stage 0 (a): 1.5 + 2 = 3.5;  stage 1: a chains 1.5 + 9 + 2 = 12.5, b from 3.5: 9 + 2 → 14.5;
  //   stage 2 (a): chain 12 + 2 = 14, or from b's 14.5: 1.5 + 2 → 18.   R = 18 ms (12 uncharged).
  const rtpar::TaskSet set = rtpar::parse_taskset(kDemo, "<demo>");
  const rtpar::Plan plain = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(plain.schedulable);
  CHECK(*plain.tasks[0].response_bound_ns == 12'000'000);
  const rtpar::Plan p =
      rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, charged(1'000'000, 1'000'000'000));
  REQUIRE(p.schedulable);
  CHECK(p.interference.state == "charged");
  CHECK(has_note(p, "kernel interference charged"));
  CHECK(*p.tasks[0].response_bound_ns == 18'000'000);
  CHECK(p.tasks[0].segments[0].deadline_ns == 3'500'000);
  CHECK(p.tasks[0].segments[1].deadline_ns == 14'500'000);
  // Linux's default server (50 ms at once) leaves no bound below D = 20 ms on any core count.
  const rtpar::Plan linux_default =
      rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, charged(50'000'000, 1'000'000'000));
  CHECK_FALSE(linux_default.schedulable);
  CHECK(linux_default.tasks[0].reason);
}

TEST_CASE("interference: fork-join-rta with the server takes more cores where it needs them") {
  // One sequential strand cannot use a second core; two strands of 4 ms can. D = 10 ms, server
  // 2 ms every 10 ms (I(w) = 4 ms for 2 < w ≤ 12 ms): on one core 8 + 4 = 12 > 10, on two cores
  // 4 + 4 = 8 ≤ 10.
  const rtpar::TaskSet set = rtpar::parse_taskset(R"(
[system]
cores = [0, 1]
[[task]]
name = "pair"
period = "10ms"
kernel = "segments"
args.segments = [{ strands = 2, length = "4ms" }]
)",
                                                  "<pair>");
  const rtpar::Plan plain = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set);
  REQUIRE(plain.schedulable);
  CHECK(plain.tasks[0].cores.size() == 1);  // ⌈C/T⌉ = 1 core: 8 ms
  const rtpar::Plan p =
      rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, charged(2'000'000, 10'000'000));
  REQUIRE(p.schedulable);
  CHECK(p.tasks[0].cores.size() == 2);
  CHECK(*p.tasks[0].response_bound_ns == 8'000'000);
}

TEST_CASE("interference: decomposition charges I(d) in the load condition, at the boundary") {
  // A sequential task is one strand with window d = D = 10 ms; 1 ms every 10 ms gives I(d) = 2 ms,
  // so C = 8 ms is admitted and C = 8 ms + 1 ns is not.
  auto one = [](const char* work) {
    return rtpar::parse_taskset(std::string("[system]\ncores = [0]\n[[task]]\nname = \"a\"\n"
                                            "period = \"10ms\"\nwork = \"") +
                                    work + "\"\n",
                                "<one>");
  };
  const rtpar::Plan fits = rtpar::plan_with(rtpar::PlannerKind::decomposition, one("8ms"),
                                            charged(1'000'000, 10'000'000));
  CHECK(fits.schedulable);
  CHECK(fits.interference.state == "charged");
  CHECK(has_note(fits, "kernel interference charged"));
  const rtpar::Plan over = rtpar::plan_with(rtpar::PlannerKind::decomposition, one("8000001ns"),
                                            charged(1'000'000, 10'000'000));
  CHECK_FALSE(over.schedulable);
  REQUIRE(over.tasks[0].reason);
  CHECK(over.tasks[0].reason->find("I(d) = 2000000 ns") != std::string::npos);
  CHECK(rtpar::plan_with(rtpar::PlannerKind::decomposition, one("8000001ns")).schedulable);
  // The demo: stage 1 puts 3 strands of 3 ms on a core in a 10 ms window; 9 + 2 > 10.
  const rtpar::Plan demo =
      rtpar::plan_with(rtpar::PlannerKind::decomposition, rtpar::parse_taskset(kDemo, "<demo>"),
                       charged(1'000'000, 1'000'000'000));
  CHECK_FALSE(demo.schedulable);
  CHECK(rtpar::plan_with(rtpar::PlannerKind::decomposition, rtpar::parse_taskset(kDemo, "<demo>"))
            .schedulable);
}
