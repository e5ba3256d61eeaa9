// test_measured_profile.cpp — load_measured_profile (`check --measured REPORT`): the values read
// back from a run report, and strict rejections naming the file and the JSON path of the field.
#include <doctest/doctest.h>

#include <string>

#include "rtpar/error.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"
#include "support/scratch_file.hpp"

namespace {

// ReportFile is a scratch run report holding `text`, removed afterwards.
struct ReportFile : rtpar::test::ScratchFile {
  explicit ReportFile(const std::string& text) : ScratchFile(text, "measured_profile") {}
};

// task_json is one measured task entry with the given fields substituted.
std::string task_json(const std::string& name, const std::string& jobs, const std::string& work_max,
                      const std::string& span_max) {
  return R"({"name": )" + name + R"(, "jobs": 5, "profiled_jobs": )" + jobs +
         R"(, "work_ns": {"p50": 1, "p99": 2, "max": )" + work_max +
         R"(}, "burdened_span_ns": {"p50": 1, "p99": 1, "max": )" + span_max + "}}";
}

std::string report(const std::string& tasks) {
  return R"({"duration_ns": 1, "tasks": [)" + tasks + "]}";
}

// rejection loads `text` and returns the InputError's what() (failing when it loads).
std::string rejection(const std::string& text) {
  const ReportFile file(text);
  try {
    (void)rtpar::load_measured_profile(file.path());
  } catch (const rtpar::InputError& e) {
    CHECK(std::string(e.what()).find(file.path()) == 0);
    return e.what();
  }
  FAIL("accepted: " << text);
  return {};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("measured profile: maxima of measured tasks are read; unmeasured tasks skipped") {
  const ReportFile file(report(task_json(R"("solver")", "3", "11000000", "2000000") +
                               R"(, {"name": "plain", "jobs": 4, "misses": 0})" + ", " +
                               R"({"name": "idle", "profiled_jobs": 0, "work_ns": {"max": 0},
                                   "burdened_span_ns": {"max": 0}})"));
  const rtpar::MeasuredProfile p = rtpar::load_measured_profile(file.path());
  CHECK(p.source == file.path());
  REQUIRE(p.tasks.size() == 1);
  CHECK(p.tasks[0].name == "solver");
  CHECK(p.tasks[0].jobs == 3);
  CHECK(p.tasks[0].work_max_ns == 11'000'000);
  CHECK(p.tasks[0].burdened_span_max_ns == 2'000'000);
}

TEST_CASE("measured profile: bad reports are input errors with the JSON path") {
  std::string e = rejection(report(task_json(R"("s")", "3", "-1", "5")));
  CHECK(contains(e, "tasks[0].work_ns.max: must be a non-negative integer"));
  e = rejection(report(task_json(R"("s")", "3", "1.5", "5")));
  CHECK(contains(e, "tasks[0].work_ns.max"));
  e = rejection(report(task_json(R"("s")", "3", "10", "\"x\"")));
  CHECK(contains(e, "tasks[0].burdened_span_ns.max"));
  e = rejection(report(task_json(R"("s")", "3", "10", "18446744073709551615")));
  CHECK(contains(e, "tasks[0].burdened_span_ns.max"));
  e = rejection(report(task_json(R"("s")", "-2", "10", "5")));
  CHECK(contains(e, "tasks[0].profiled_jobs"));
  e = rejection(report(task_json(R"("s")", "2.0", "10", "5")));
  CHECK(contains(e, "tasks[0].profiled_jobs"));
  e = rejection(report(task_json(R"("")", "3", "10", "5")));
  CHECK(contains(e, "tasks[0].name: must not be empty"));
  e = rejection(report(task_json("7", "3", "10", "5")));
  CHECK(contains(e, "tasks[0].name: must be a string"));
  e = rejection(report(R"({"name": "s", "profiled_jobs": 1, "burdened_span_ns": {"max": 5}})"));
  CHECK(contains(e, "tasks[0]: missing field 'work_ns'"));
  e = rejection(report(R"({"name": "s", "profiled_jobs": 1, "work_ns": {"max": 9},
                           "burdened_span_ns": {"p99": 7, "max": 5}})"));
  CHECK(contains(e, "tasks[0].burdened_span_ns.p99: is above max"));
  e = rejection(
      report(task_json(R"("s")", "3", "10", "5") + ", " + task_json(R"("s")", "4", "12", "5")));
  CHECK(contains(e, "tasks[1].name: task 's' is measured twice (also tasks[0])"));
  // Nothing measured: --measured would silently change nothing.
  e = rejection(report(R"({"name": "plain", "jobs": 4})"));
  CHECK(contains(e, "tasks: no task has a measurement"));
  e = rejection(report(""));
  CHECK(contains(e, "tasks: no task has a measurement"));
  e = rejection(R"({"tasks": {}})");
  CHECK(contains(e, "tasks: expected an array"));
  e = rejection(R"({"plan": 1})");
  CHECK(contains(e, "expected a run report"));
  e = rejection("{\"tasks\": [\n  {\"name\": }\n]}");
  CHECK(contains(e, ":2:"));
}

TEST_CASE("measured profile: rtpar profile's CPU work and span bound are read for any task") {
  const ReportFile file(report(
      R"({"name": "light", "cpu_jobs": 4, "cpu_work_ns": {"p50": 1, "p99": 2, "max": 900}},
         {"name": "wide", "jobs": 6, "cpu_jobs": 6, "cpu_work_ns": {"max": 7000},
          "span_bound_ns": {"p50": 3, "p99": 4, "max": 4000}})"));
  const rtpar::MeasuredProfile p = rtpar::load_measured_profile(file.path());
  REQUIRE(p.tasks.size() == 2);
  CHECK(p.tasks[0].name == "light");
  CHECK(p.tasks[0].cpu_jobs == 4);
  CHECK(p.tasks[0].cpu_work_max_ns == 900);
  CHECK(p.tasks[0].jobs == 0);
  CHECK(p.tasks[0].span_jobs == 0);
  CHECK(p.tasks[1].cpu_work_max_ns == 7000);
  CHECK(p.tasks[1].span_jobs == 6);
  CHECK(p.tasks[1].span_bound_max_ns == 4000);
}

TEST_CASE("measured profile: the extended fields are strict and name their JSON path") {
  CHECK(contains(rejection(report(R"({"name": "a", "cpu_work_ns": {"max": 5}})")),
                 "tasks[0]: missing field 'cpu_jobs'"));
  CHECK(contains(rejection(report(R"({"name": "a", "cpu_jobs": 1, "cpu_work_ns": {"max": -5}})")),
                 "tasks[0].cpu_work_ns.max"));
  CHECK(contains(
      rejection(report(R"({"name": "a", "cpu_jobs": 1, "cpu_work_ns": {"p99": 9, "max": 5}})")),
      "tasks[0].cpu_work_ns.p99: is above max"));
  CHECK(contains(rejection(report(R"({"name": "a", "span_bound_ns": {"max": 5}})")),
                 "tasks[0]: missing field 'jobs'"));
  CHECK(contains(rejection(report(R"({"name": "a", "jobs": 2, "span_bound_ns": {"max": 1.5}})")),
                 "tasks[0].span_bound_ns.max"));
  CHECK(contains(rejection(report(R"({"name": "a", "cpu_jobs": 0, "cpu_work_ns": {"max": 5}})")),
                 "no task has a measurement"));
}
