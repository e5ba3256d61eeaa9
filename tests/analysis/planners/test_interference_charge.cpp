// test_interference_charge.cpp — the planners charging the kernel's server
// (src/analysis/planners/interference_charge.hpp, PlanOptions::interference).
#include <doctest/doctest.h>

#include <string>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace {

constexpr const char* kDemo = R"(
[system]
cores = [0, 1]
[[task]]
name = "vision"
period = "20ms"
kernel = "segments"
args.segments = [
  { strands = 1, length = "1.5ms" },
  { strands = 6, length = "3ms" },
  { strands = 1, length = "1.5ms" },
]
)";

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

TEST_CASE("interference: partitioned charges |K|·I(R); strand planners say they do not") {
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

  const rtpar::TaskSet demo = rtpar::parse_taskset(kDemo, "<demo>");
  for (const auto kind : {rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta}) {
    const rtpar::Plan p = rtpar::plan_with(kind, demo, charged(1'000'000, 1'000'000'000));
    CHECK(p.interference.state == "not_charged");
    CHECK(has_note(p, "NOT charged by this planner"));
  }
}
