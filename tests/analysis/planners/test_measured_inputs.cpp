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
  CHECK(out.tasks[0].work == 9ms);       // measured 7 ms < declared 9 ms
  CHECK(out.tasks[0].span == 2500us);    // measured 2.5 ms > declared 2 ms
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
