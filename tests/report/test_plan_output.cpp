// test_plan_output.cpp — the plan fields of strand- and thread-level planners in `check --json`
// and the check table (src/report/plan_output.cpp; schema in docs/cli.md).
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/report_io.hpp"

using json = nlohmann::json;
using rtpar::Duration;

namespace {

rtpar::TaskSpec spec(const std::string& name, std::int64_t ms) {
  rtpar::TaskSpec s;
  s.name = name;
  s.work = s.span = Duration(ms * 1'000'000);
  s.period = s.deadline = Duration(10 * ms * 1'000'000);
  return s;
}

// sample is a decomposition-like strand plan ("cam": 1 strand, then 4 strands on CPUs 0,0,1,1)
// next to a partitioned-like EDF team ("log": two threads on CPU 2).
struct Sample {
  rtpar::TaskSet set;
  rtpar::Plan plan;
  Sample() {
    set.tasks = {spec("cam", 1), spec("log", 1)};
    plan.planner = rtpar::PlannerKind::decomposition;
    plan.cores = {0, 1, 2};
    plan.schedulable = true;
    rtpar::TaskPlan cam;
    cam.name = "cam";
    cam.cores = {0, 1};
    cam.priority = 90;
    cam.segments = {
        rtpar::SegmentPlan{1'000'000, 0, 2'000'000, {{0, 91}}},
        rtpar::SegmentPlan{500'000, 2'000'000, 8'000'000, {{0, 90}, {0, 90}, {1, 90}, {1, 90}}}};
    rtpar::TaskPlan log;
    log.name = "log";
    log.cores = {2};
    log.thread_cores = {2, 2};
    log.scheduling = rtpar::CoreScheduling::edf;
    plan.tasks = {cam, log};
  }
};

}  // namespace

TEST_CASE("plan output: scheduling, thread_cores and segments in check --json") {
  const Sample s;
  const json doc = json::parse(rtpar::plan_json(s.plan, s.set));
  const json& cam = doc["tasks"][0];
  CHECK(cam["scheduling"] == "fixed_priority");
  CHECK(cam["thread_cores"] == json::array());
  REQUIRE(cam["segments"].size() == 2);
  CHECK(cam["segments"][1] == json::parse(R"({"length_ns": 500000, "offset_ns": 2000000,
      "deadline_ns": 8000000, "strands": [{"core": 0, "priority": 90}, {"core": 0, "priority": 90},
      {"core": 1, "priority": 90}, {"core": 1, "priority": 90}]})"));
  const json& log = doc["tasks"][1];
  CHECK(log["scheduling"] == "edf");
  CHECK(log["thread_cores"] == json({2, 2}));
  CHECK(log["segments"] == json::array());
}

TEST_CASE("plan output: the full table (-v) shows threads, EDF and every segment") {
  const Sample s;
  const std::string table = rtpar::plan_table(s.plan, s.set, rtpar::TableDetail::full);
  CHECK(table.find("threads") != std::string::npos);
  CHECK(table.find("2,2") != std::string::npos);  // log's two threads on CPU 2
  CHECK(table.find("EDF") != std::string::npos);
  CHECK(table.find("\nsegments\n") != std::string::npos);
  // Runs of equal strands are grouped with a count; offsets and deadlines are durations.
  CHECK(table.find("0/90×2, 1/90×2") != std::string::npos);
  CHECK(table.find("0/91") != std::string::npos);
  CHECK(table.find("8ms") != std::string::npos);

  // A federated-style plan (no thread_cores, no segments) keeps the original columns only.
  rtpar::Plan plain = s.plan;
  plain.tasks[0].segments.clear();
  plain.tasks[1].thread_cores.clear();
  plain.tasks[1].scheduling = rtpar::CoreScheduling::fixed_priority;
  const std::string t2 = rtpar::plan_table(plain, s.set);
  CHECK(t2.find("threads") == std::string::npos);
  CHECK(t2.find("segments") == std::string::npos);
  CHECK(t2.find("EDF") == std::string::npos);
}

TEST_CASE("plan output: by default one line of segments per task, a plain kernel line") {
  Sample s;
  s.plan.interference = {"stated", false, 50'000'000, 1'000'000'000,
                         "read here: fair server unknown (permission denied); RT throttling off"};
  const std::string table = rtpar::plan_table(s.plan, s.set);
  INFO(table);
  CHECK(table.find("segments (one line per task; -v: every segment)") != std::string::npos);
  // cam: 2 segments, 5 strands, the widest 4, on CPUs 0-1 at priorities 90-91, longest 1 ms.
  CHECK(table.find("cam          2        5       4  0-1    90-91             1ms") !=
        std::string::npos);
  CHECK(table.find("0/90×2") == std::string::npos);  // no per-segment rows
  CHECK(table.find("kernel   not charged: up to 50ms every 1s per core may preempt the tasks; "
                   "not all read (-v: details)\n") != std::string::npos);
  CHECK(table.find("fair server") == std::string::npos);
  const std::string full = rtpar::plan_table(s.plan, s.set, rtpar::TableDetail::full);
  CHECK(full.find("kernel   stated: 50ms every 1s per core (partly unknown) — read here: fair "
                  "server unknown") != std::string::npos);
}
