// test_measured_inputs.cpp — with_measured: declared C and L raised to measured values (never
// lowered), with a note per task, for federated-ws (`rtpar check --measured REPORT`).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/planners/measured_inputs.hpp"
#include "rtpar/tools/planners.hpp"

using namespace std::chrono_literals;

namespace {

rtpar::TaskSet segments_task() {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = {0, 1};
  set.system.planner = rtpar::PlannerKind::federated_ws;
  rtpar::TaskSpec t;
  t.name = "solver";
  t.period = t.deadline = 10ms;
  t.runtime = rtpar::RuntimeKind::steal;
  t.segments = {{1, 1ms, {}}, {8, 1ms, {}}};
  t.work = 9ms;
  t.span = 2ms;
  set.tasks.push_back(t);
  return set;
}

}  // namespace

TEST_CASE("measured inputs: raised values win, lower ones do not; unknown tasks are noted") {
  const rtpar::TaskSet set = segments_task();
  rtpar::MeasuredProfile m{"r.json", {{"solver", 3, 7'000'000, 2'500'000}, {"ghost", 1, 1, 1}}};
  std::vector<std::string> notes;
  const rtpar::TaskSet out = rtpar::analysis::with_measured(set, m, notes);
  CHECK(out.tasks[0].work == 9ms);     // measured 7 ms < declared 9 ms
  CHECK(out.tasks[0].span == 2500us);  // measured 2.5 ms > declared 2 ms
  REQUIRE(notes.size() == 2);
  CHECK(notes[1].find("ghost") != std::string::npos);
}

TEST_CASE("measured inputs: a task with segments is planned from its measured C and L") {
  // Before, the raised C = 13 ms disagreed with the segments' 9 ms and federated-ws refused the
  // task set as bad input (exit 2) although the report was valid.
  const rtpar::TaskSet set = segments_task();
  const rtpar::MeasuredProfile m{"r.json", {{"solver", 3, 13'000'000, 2'500'000}}};
  rtpar::PlanOptions options;
  options.measured = &m;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated_ws, set, options);
  REQUIRE(plan.tasks.size() == 1);
  CHECK(plan.tasks[0].heavy);
  // δ = 1.5: n = ⌈(13 + 10 − 3.75) / (10 − 3.75)⌉ = ⌈3.08⌉ = 4 cores; two are available.
  CHECK(plan.tasks[0].cores_needed == 4);
  CHECK_FALSE(plan.schedulable);
  // Unchanged values keep the structure (nothing to reconcile).
  std::vector<std::string> notes;
  const rtpar::MeasuredProfile same{"r.json", {{"solver", 3, 9'000'000, 2'000'000}}};
  CHECK(rtpar::analysis::with_measured(set, same, notes).tasks[0].segments.size() == 2);
}

TEST_CASE("measured inputs: CPU work and a span bound raise C and L; a sequential task stays so") {
  rtpar::TaskSet set = segments_task();
  rtpar::TaskSpec seq;
  seq.name = "seq";
  seq.period = seq.deadline = 10ms;
  seq.work = seq.span = 2ms;
  set.tasks.push_back(seq);
  rtpar::MeasuredTask wide{"solver", 0, 0, 0};
  wide.cpu_jobs = 4;
  wide.cpu_work_max_ns = 10'000'000;
  wide.span_jobs = 4;
  wide.span_bound_max_ns = 3'000'000;
  rtpar::MeasuredTask light{"seq", 0, 0, 0};
  light.cpu_jobs = 4;
  light.cpu_work_max_ns = 2'500'000;
  const rtpar::MeasuredProfile m{"p.json", {wide, light}};
  std::vector<std::string> notes;
  const rtpar::TaskSet out = rtpar::analysis::with_measured(set, m, notes);
  CHECK(out.tasks[0].work == 10ms);
  CHECK(out.tasks[0].span == 3ms);
  CHECK(out.tasks[0].segments.empty());  // drop: planned from C and L
  CHECK(out.tasks[1].work == 2500us);
  CHECK(out.tasks[1].span == 2500us);  // sequential: L follows C
  REQUIRE(notes.size() == 2);
  CHECK(notes[0].find("measured CPU work 10ms") != std::string::npos);
  CHECK(notes[0].find("measured response on its team 3ms") != std::string::npos);
}

TEST_CASE("measured inputs: the scale rule keeps the structure, every length times one factor") {
  // Segments 1 × 1 ms, 8 × 1 ms: C = 9 ms, L = 2 ms. Measured C 13.5 ms (× 1.5), L 2.5 ms (× 1.25):
  // f = 1.5, each length 1.5 ms, C = 13.5 ms, L = 3 ms.
  const rtpar::TaskSet set = segments_task();
  rtpar::MeasuredTask t{"solver", 0, 0, 0};
  t.cpu_jobs = 2;
  t.cpu_work_max_ns = 13'500'000;
  t.span_jobs = 2;
  t.span_bound_max_ns = 2'500'000;
  const rtpar::MeasuredProfile m{"p.json", {t}};
  std::vector<std::string> notes;
  const rtpar::TaskSet out =
      rtpar::analysis::with_measured(set, m, rtpar::analysis::StructureRule::scale, notes);
  REQUIRE(out.tasks[0].segments.size() == 2);
  CHECK(out.tasks[0].segments[0].length == 1500us);
  CHECK(out.tasks[0].segments[1].length == 1500us);
  CHECK(out.tasks[0].work == 13500us);
  CHECK(out.tasks[0].span == 3ms);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("scaled by 1.5000") != std::string::npos);
  // Every planner reads the measurement: decomposition places the scaled structure.
  rtpar::PlanOptions options;
  options.measured = &m;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::decomposition, set, options);
  REQUIRE_FALSE(plan.notes.empty());
  CHECK(plan.notes[0].find("scaled by") != std::string::npos);
}
