// test_report.cpp — statistics and every rendering of Plans and RunReports (JSON, tables, CSV,
// Chrome trace, report directory). Plans and reports are built by hand: no planner or executor.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/report_io.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using rtpar::Duration;

// record builds a job whose release is at 1 s + index·period and whose response is `response`.
rtpar::JobRecord record(std::int64_t index, std::int64_t response, std::int64_t period = 10'000) {
  const std::int64_t release = 1'000'000'000 + index * period;
  return {index, release, release + response / 4, release + response};
}

// task_run builds a TaskRun with deadline 1000 ns and the given responses.
rtpar::TaskRun task_run(const std::string& name, const std::vector<std::int64_t>& responses) {
  rtpar::TaskRun run;
  run.name = name;
  run.deadline_ns = 1000;
  run.period_ns = 10'000;
  run.master_tid = 4242;
  run.worker_tids = {4243, 4244};
  run.cores = {2, 3};
  for (std::size_t i = 0; i < responses.size(); ++i) {
    run.records.push_back(record(static_cast<std::int64_t>(i), responses[i]));
  }
  return run;
}

// task_plan builds a TaskPlan with no bound and no reason.
rtpar::TaskPlan task_plan(const std::string& name, bool heavy, std::vector<int> cores, int priority,
                          double utilization) {
  rtpar::TaskPlan task;
  task.name = name;
  task.heavy = heavy;
  task.cores_needed = heavy ? static_cast<int>(cores.size()) : 1;
  task.cores = std::move(cores);
  task.priority = priority;
  task.utilization = utilization;
  return task;
}

// sample_plan is an unschedulable federated plan: a heavy task with a bound, a light one without.
rtpar::Plan sample_plan() {
  rtpar::Plan plan;
  plan.planner = rtpar::PlannerKind::federated;
  plan.cores = {0, 1, 2, 3, 6, 7};
  plan.tasks = {task_plan("ctrl", true, {0, 1, 2, 3, 6}, 90, 1.6),
                task_plan("log", false, {7}, 10, 0.1)};
  plan.tasks[0].response_bound_ns = 9'000'000;
  plan.tasks[1].reason = "core 7 is over-utilized";
  plan.notes = {"2 cores left idle"};
  return plan;
}

// task_spec builds a TaskSpec from T, D, C and L in nanoseconds.
rtpar::TaskSpec task_spec(const std::string& name, std::int64_t t, std::int64_t d, std::int64_t c,
                          std::int64_t l) {
  rtpar::TaskSpec spec;
  spec.name = name;
  spec.period = Duration(t);
  spec.deadline = Duration(d);
  spec.work = Duration(c);
  spec.span = Duration(l);
  return spec;
}

// sample_set is the TaskSet sample_plan was (notionally) made from.
rtpar::TaskSet sample_set() {
  rtpar::TaskSet set;
  set.system.cores = {0, 1, 2, 3, 6, 7};
  set.tasks = {task_spec("ctrl", 10'000'000, 10'000'000, 16'000'000, 2'000'000),
               task_spec("log", 100'000'000, 50'000'000, 10'000'000, 10'000'000)};
  return set;
}

// sample_report holds two tasks: "a" with one miss (1001 > 1000) and "b" with none.
rtpar::RunReport sample_report() {
  rtpar::RunReport report;
  report.start_ns = 1'000'000'000;
  report.duration_ns = 2'000'000'000;
  report.plan = sample_plan();
  report.tasks = {task_run("a", {500, 1000, 1001, 700}), task_run("b", {100, 200})};
  report.tasks[1].master_tid = 0;  // unknown tid: the trace must invent one
  return report;
}

// words splits a space-separated list of key names into a set, to compare with keys().
std::set<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::set<std::string> out;
  for (std::string word; in >> word;) out.insert(word);
  return out;
}

// keys lists an object's keys.
std::set<std::string> keys(const json& object) {
  std::set<std::string> out;
  for (const auto& item : object.items()) out.insert(item.key());
  return out;
}

// ScratchDir is a fresh directory under the system temp dir, removed with its contents.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    static std::atomic<int> counter{0};
    path = fs::temp_directory_path() /
           ("rtpar_test_report_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

// read_file returns a file's whole content.
std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// temp_files lists the names in dir, and beside it, that look like write_report_dir's
// temporaries (its staging and set-aside directories live beside the report directory).
std::vector<std::string> temp_files(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp") != std::string::npos) out.push_back(name);
  }
  const std::string sibling = "." + dir.filename().string() + ".rtpar-";
  for (const auto& entry : fs::directory_iterator(dir.parent_path())) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(sibling, 0) == 0) out.push_back(name);
  }
  return out;
}

}  // namespace

TEST_CASE("report: percentile is nearest-rank with clamped boundaries") {
  CHECK(rtpar::percentile({}, 0.5) == 0);
  CHECK(rtpar::percentile({7}, 0.01) == 7);
  CHECK(rtpar::percentile({7}, 0.99) == 7);
  CHECK(rtpar::percentile({7}, 1.0) == 7);

  std::vector<std::int64_t> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  CHECK(rtpar::percentile(hundred, 0.99) == 99);  // the 99th smallest
  CHECK(rtpar::percentile(hundred, 0.50) == 50);
  CHECK(rtpar::percentile(hundred, 0.07) == 7);  // 0.07·100 is 7.000000000000001 in doubles
  CHECK(rtpar::percentile(hundred, 0.001) == 1);
  CHECK(rtpar::percentile(hundred, 1.0) == 100);
  CHECK(rtpar::percentile(hundred, 0.0) == 1);  // ceil(0) − 1 = −1, clamped to the first
  CHECK(rtpar::percentile(hundred, 2.0) == 100);

  const std::vector<std::int64_t> three = {10, 20, 30};
  CHECK(rtpar::percentile(three, 0.33) == 10);  // ceil(0.99) = 1
  CHECK(rtpar::percentile(three, 0.34) == 20);  // ceil(1.02) = 2
  CHECK(rtpar::percentile(three, 0.5) == 20);
  CHECK(rtpar::percentile(three, 0.99) == 30);
}

TEST_CASE("report: summarize counts a miss only past the deadline") {
  rtpar::TaskRun run = task_run("a", {500, 1000, 1001, 700});  // D = 1000
  run.skipped = 2;
  const rtpar::TaskStats s = rtpar::summarize(run);
  CHECK(s.name == "a");
  CHECK(s.jobs == 4);
  CHECK(s.misses == 1);  // 1000 == D met its deadline; 1001 did not
  CHECK(s.skipped == 2);
  CHECK(s.miss_ratio == doctest::Approx(0.25));
  CHECK(s.response_min_ns == 500);
  CHECK(s.response_p50_ns == 700);   // sorted 500 700 1000 1001: rank ceil(2) = 2
  CHECK(s.response_p99_ns == 1001);  // rank ceil(3.96) = 4
  CHECK(s.response_max_ns == 1001);
  CHECK(s.max_relative_response == doctest::Approx(1.001));

  SUBCASE("no jobs gives zeros, not a division by zero") {
    rtpar::TaskRun empty = task_run("e", {});
    empty.skipped = 3;
    const rtpar::TaskStats e = rtpar::summarize(empty);
    CHECK(e.jobs == 0);
    CHECK(e.misses == 0);
    CHECK(e.skipped == 3);
    CHECK(e.miss_ratio == 0.0);
    CHECK(e.response_max_ns == 0);
    CHECK(e.max_relative_response == 0.0);
  }
  SUBCASE("RunReport::stats and total_misses agree with summarize") {
    rtpar::RunReport report = sample_report();
    report.tasks[1].records.push_back(record(2, 5000));
    const auto stats = report.stats();
    REQUIRE(stats.size() == 2);
    CHECK(stats[0].misses == 1);
    CHECK(stats[1].misses == 1);
    CHECK(stats[1].jobs == 3);
    CHECK(report.total_misses() == 2);
  }
}

TEST_CASE("report: run_json has exactly the documented keys and types") {
  rtpar::RunReport report = sample_report();
  report.tasks[0].skipped = 1;
  const json doc = json::parse(rtpar::run_json(report));
  CHECK(keys(doc) ==
        words("duration_ns tasks best_effort interrupted cpu_latency_us interference "
              "channels locks total_hold_overruns chains chains_exceeding overhead_profile "
              "host_steal_ns verdict"));
  CHECK(keys(doc["verdict"]) == words("promised promise_kept jobs misses over_bound hold_overruns "
                                      "chains_exceeding cause"));
  CHECK(doc["verdict"]["promise_kept"].is_boolean());
  CHECK(doc["overhead_profile"].is_null());  // nothing charged in this report
  CHECK(doc["host_steal_ns"].is_null());     // not measured (set by `rtpar run`)
  CHECK(doc["locks"].is_array());
  CHECK(doc["total_hold_overruns"] == 0);
  CHECK(keys(doc["interference"]) == words("state known budget_ns period_ns source"));
  CHECK(doc["cpu_latency_us"].is_null());  // none held
  report.cpu_latency_us = 0;
  CHECK(json::parse(rtpar::run_json(report))["cpu_latency_us"] == 0);
  CHECK(doc["duration_ns"].is_number_integer());
  CHECK(doc["duration_ns"] == 2'000'000'000);
  CHECK(doc["best_effort"] == false);
  CHECK(doc["interrupted"] == false);
  REQUIRE(doc["tasks"].is_array());
  REQUIRE(doc["tasks"].size() == 2);

  const json& a = doc["tasks"][0];
  CHECK(keys(a) == words("name jobs misses skipped response_ns max_relative_response "  // required
                         "miss_ratio records_truncated response_bound_ns over_bound "   // extras
                         "response_histogram "
                         "budget budget_ns overruns max_overrun_ns demoted_ns overrun_misses"));
  CHECK(a["response_histogram"]["buckets"].is_array());
  CHECK(a["budget"] == "none");  // budgets: docs/reliability.md
  CHECK(a["overruns"] == 0);
  CHECK(a["name"] == "a");
  for (const char* key : {"jobs", "misses", "skipped"}) CHECK(a[key].is_number_integer());
  CHECK(a["jobs"] == 4);
  CHECK(a["misses"] == 1);
  CHECK(a["skipped"] == 1);
  CHECK(keys(a["response_ns"]) == words("min p50 p99 max"));
  for (const auto& item : a["response_ns"].items()) CHECK(item.value().is_number_integer());
  CHECK(a["response_ns"]["max"] == 1001);
  CHECK(a["max_relative_response"].is_number());
  CHECK(a["max_relative_response"].get<double>() == doctest::Approx(1.001));
  CHECK(a["miss_ratio"].get<double>() == doctest::Approx(0.25));
  CHECK(a["records_truncated"] == false);
  // The plan names no task "a": no bound, nothing counted over it.
  CHECK(a["response_bound_ns"].is_null());
  CHECK(a["over_bound"].is_null());
  // With a bound of 900 ns, two of a's responses (500, 1000, 1001, 700) are above it; b (no plan
  // entry) stays null. The text table shows the same.
  report.plan.tasks[0].name = "a";
  report.plan.tasks[0].response_bound_ns = 900;
  const json bounded = json::parse(rtpar::run_json(report));
  CHECK(bounded["tasks"][0]["response_bound_ns"] == 900);
  CHECK(bounded["tasks"][0]["over_bound"] == 2);
  CHECK(bounded["tasks"][1]["over_bound"].is_null());
  const std::string table = rtpar::stats_table(report);
  CHECK(table.find("R bound") != std::string::npos);
  CHECK(table.find("900ns") != std::string::npos);
}

TEST_CASE("report: plan_json has exactly the documented keys, with null for missing bounds") {
  const json doc = json::parse(rtpar::plan_json(sample_plan(), sample_set()));
  CHECK(keys(doc) ==
        words("schedulable planner cores tasks channels chains notes interference supply"));
  CHECK(doc["channels"].is_array());
  CHECK(doc["supply"].is_null());  // no profile charged
  CHECK(keys(doc["interference"]) == words("state known budget_ns period_ns source"));
  CHECK(doc["interference"]["state"] == "unread");
  CHECK(doc["schedulable"] == false);
  CHECK(doc["planner"] == "federated");
  CHECK(doc["cores"] == json({0, 1, 2, 3, 6, 7}));
  CHECK(doc["notes"] == json({"2 cores left idle"}));
  REQUIRE(doc["tasks"].size() == 2);

  const std::set<std::string> task_keys = words(
      "name heavy cores priority utilization response_bound_ns reason "           // required
      "cores_needed expected_response_ns period_ns deadline_ns work_ns span_ns "  // extras
      "scheduling thread_cores member_budget_ns wait segments");  // shared-core planners
  const json& ctrl = doc["tasks"][0];
  CHECK(keys(ctrl) == task_keys);
  CHECK(ctrl["name"] == "ctrl");
  CHECK(ctrl["wait"].is_null());  // no planner changed its wait policy
  CHECK(ctrl["heavy"] == true);
  CHECK(ctrl["cores"] == json({0, 1, 2, 3, 6}));
  CHECK(ctrl["priority"].is_number_integer());
  CHECK(ctrl["utilization"].is_number());
  CHECK(ctrl["response_bound_ns"].is_number_integer());
  CHECK(ctrl["response_bound_ns"] == 9'000'000);
  CHECK(ctrl["reason"].is_null());
  CHECK(ctrl["expected_response_ns"].is_null());
  CHECK(ctrl["cores_needed"] == 5);
  CHECK(ctrl["work_ns"] == 16'000'000);
  CHECK(ctrl["span_ns"] == 2'000'000);

  const json& log = doc["tasks"][1];
  CHECK(keys(log) == task_keys);
  CHECK(log["heavy"] == false);
  CHECK(log["response_bound_ns"].is_null());
  CHECK(log["reason"] == "core 7 is over-utilized");
  CHECK(log["deadline_ns"] == 50'000'000);
  CHECK(log["period_ns"] == 100'000'000);

  SUBCASE("federated-ws names its planner and reports E[R]") {
    rtpar::Plan ws = sample_plan();
    ws.planner = rtpar::PlannerKind::federated_ws;
    ws.tasks[0].expected_response_ns = 4'500'000.5;
    const json wdoc = json::parse(rtpar::plan_json(ws, sample_set()));
    CHECK(wdoc["planner"] == "federated-ws");
    CHECK(wdoc["tasks"][0]["expected_response_ns"].get<double>() == doctest::Approx(4'500'000.5));
  }
}

TEST_CASE("report: report_json extends run_json with the plan and environment") {
  rtpar::RunReport report = sample_report();
  report.best_effort = true;
  report.memory_locked = true;
  const json doc = json::parse(rtpar::report_json(report));
  const json run = json::parse(rtpar::run_json(report));
  for (const auto& item : run.items()) {
    if (item.key() != "tasks") CHECK(doc[item.key()] == item.value());
  }
  CHECK(doc["start_ns"] == 1'000'000'000);
  CHECK(doc["best_effort"] == true);
  CHECK(doc["interrupted"] == false);
  CHECK(doc["memory_locked"] == true);
  CHECK(doc["plan"]["planner"] == "federated");
  CHECK(doc["plan"]["tasks"][1]["reason"] == "core 7 is over-utilized");
  const json& a = doc["tasks"][0];
  for (const auto& item : run["tasks"][0].items()) CHECK(a[item.key()] == item.value());
  CHECK(a["cores"] == json({2, 3}));
  CHECK(a["master_tid"] == 4242);
  CHECK(a["worker_tids"] == json({4243, 4244}));
  CHECK(a["period_ns"] == 10'000);
  CHECK(a["deadline_ns"] == 1000);
}

TEST_CASE("report: jobs_csv has a header and one row per job") {
  const rtpar::RunReport report = sample_report();
  const std::string csv = rtpar::jobs_csv(report);
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 1 + 4 + 2);
  CHECK(lines[0] ==
        "task,job,release_ns,start_ns,finish_ns,response_ns,deadline_ns,missed,work_ns,span_ns,"
        "burdened_span_ns,overrun_ns");
  // Job 2 of "a": released at 1 s + 20 µs, response 1001 > D = 1000.
  CHECK(lines[3] == "a,2,1000020000,1000020250,1000021001,1001,1000,1,,,,");
  CHECK(lines[2] == "a,1,1000010000,1000010250,1000011000,1000,1000,0,,,,");
  CHECK(lines[5] == "b,0,1000000000,1000000025,1000000100,100,1000,0,,,,");

  SUBCASE("a name with a comma or quote is quoted") {
    rtpar::RunReport odd = sample_report();
    odd.tasks[1].name = "x,\"y\"";
    CHECK(rtpar::jobs_csv(odd).find("\n\"x,\"\"y\"\"\",0,") != std::string::npos);
  }
}

TEST_CASE("report: trace_json is a Chrome trace with one X event per job") {
  const rtpar::RunReport report = sample_report();
  const json doc = json::parse(rtpar::trace_json(report));
  CHECK(doc["displayTimeUnit"] == "ns");
  REQUIRE(doc["traceEvents"].is_array());

  int complete = 0;
  int releases = 0;
  int misses = 0;
  std::set<std::int64_t> named_tids;
  for (const json& e : doc["traceEvents"]) {
    REQUIRE(e.contains("ph"));
    const std::string ph = e["ph"];
    if (ph == "M" && e["name"] == "thread_name") named_tids.insert(e["tid"].get<std::int64_t>());
    if (ph == "X") {
      ++complete;
      CHECK(e["ts"].is_number());
      CHECK(e["dur"].get<double>() >= 0.0);
      CHECK(named_tids.count(e["tid"].get<std::int64_t>()) == 1);
    }
    if (ph == "i" && e["name"] == "release") ++releases;
    if (ph == "i" && e["name"] == "deadline miss") {
      ++misses;
      CHECK(e["s"] == "t");
      // Job 2 of "a": released 20 µs after start, deadline 1 µs later.
      CHECK(e["ts"].get<double>() == doctest::Approx(21.0));
    }
    if (ph == "X" && e["name"] == "a #2") {
      CHECK(e["ts"].get<double>() == doctest::Approx(20.25));
      CHECK(e["dur"].get<double>() == doctest::Approx(0.751));
      CHECK(e["args"]["missed"] == true);
      CHECK(e["args"]["response_ns"] == 1001);
      CHECK(e["args"]["release_offset_ns"] == 20'000);
    }
  }
  CHECK(complete == 6);
  CHECK(releases == 6);
  CHECK(misses == 1);
  CHECK(named_tids.size() == 2);  // task "b" has no tid and still gets its own synthetic thread
  CHECK(named_tids.count(4242) == 1);
}

TEST_CASE("report: tables show the verdict, reasons, best effort and truncation") {
  const std::string plan = rtpar::plan_table(sample_plan(), sample_set());
  CHECK(plan.find("NOT SCHEDULABLE") != std::string::npos);
  CHECK(plan.find("0-3,6") != std::string::npos);
  CHECK(plan.find("core 7 is over-utilized") != std::string::npos);
  CHECK(plan.find("2 cores left idle") != std::string::npos);
  rtpar::Plan ok = sample_plan();
  ok.schedulable = true;
  CHECK(rtpar::plan_table(ok, sample_set()).find("NOT SCHEDULABLE") == std::string::npos);

  rtpar::RunReport report = sample_report();
  CHECK(rtpar::stats_table(report).find("BEST EFFORT") == std::string::npos);
  report.best_effort = true;
  report.interrupted = true;
  report.tasks[0].records_truncated = true;
  const std::string table = rtpar::stats_table(report);
  CHECK(table.find("BEST EFFORT (no real-time scheduling)") == 4);  // first line, after "*** "
  CHECK(table.find("interrupted") != std::string::npos);
  CHECK(table.find("warning: a:") != std::string::npos);
  CHECK(table.find("25.00%") != std::string::npos);
}

TEST_CASE("report: write_report_dir writes three complete files") {
  ScratchDir scratch;
  const fs::path out = scratch.path / "nested" / "run1";
  const rtpar::RunReport report = sample_report();
  rtpar::write_report_dir(report, out.string());
  CHECK(read_file(out / "report.json") == rtpar::report_json(report) + "\n");
  CHECK(read_file(out / "jobs.csv") == rtpar::jobs_csv(report));
  CHECK(read_file(out / "trace.json") == rtpar::trace_json(report) + "\n");
  CHECK(temp_files(out).empty());

  // Writing again replaces the files in place.
  rtpar::RunReport second = sample_report();
  second.tasks.pop_back();
  rtpar::write_report_dir(second, out.string());
  CHECK(read_file(out / "jobs.csv") == rtpar::jobs_csv(second));
  CHECK(temp_files(out).empty());
}

TEST_CASE("report: write_report_dir failures throw InputError and leave no temporaries") {
  ScratchDir scratch;
  const rtpar::RunReport report = sample_report();

  SUBCASE("the directory is an existing regular file") {
    const fs::path file = scratch.path / "not_a_dir";
    std::ofstream(file) << "x";
    try {
      rtpar::write_report_dir(report, file.string());
      FAIL("write_report_dir accepted a regular file as its directory");
    } catch (const rtpar::InputError& e) {
      CHECK(e.field() == "--out");
      CHECK(e.where().file == file.string());
    }
    CHECK(read_file(file) == "x");
    CHECK(temp_files(scratch.path).empty());
  }
  SUBCASE("a report name that is not a regular file (trace.json is a directory)") {
    fs::create_directories(scratch.path / "out" / "trace.json" / "busy");
    CHECK_THROWS_AS(rtpar::write_report_dir(report, (scratch.path / "out").string()),
                    rtpar::InputError);
    CHECK(temp_files(scratch.path / "out").empty());
    CHECK(fs::is_directory(scratch.path / "out" / "trace.json" / "busy"));
  }
  SUBCASE("a directory holding another file is refused, untouched") {
    const fs::path out = scratch.path / "out";
    fs::create_directories(out);
    std::ofstream(out / "notes.txt") << "mine";
    try {
      rtpar::prepare_report_dir(out.string());
      FAIL("prepare_report_dir accepted a directory holding notes.txt");
    } catch (const rtpar::InputError& e) {
      CHECK(std::string(e.what()).find("notes.txt") != std::string::npos);
    }
    CHECK_THROWS_AS(rtpar::write_report_dir(report, out.string()), rtpar::InputError);
    CHECK(read_file(out / "notes.txt") == "mine");
    CHECK(temp_files(out).empty());
  }
}

TEST_CASE("report: a failed write keeps the previous run's set, unmixed, and no temporaries") {
  ScratchDir scratch;
  const fs::path out = scratch.path / "run";
  const rtpar::RunReport first = sample_report();
  rtpar::write_report_dir(first, out.string());
  rtpar::RunReport second = sample_report();
  second.tasks.pop_back();
  second.start_ns += 1;

  // A file-size limit below the new files' size: with SIGXFSZ ignored (as `rtpar run` does), the
  // write fails with EFBIG; restored afterwards for the other tests.
  struct rlimit old_limit {};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  struct sigaction old_action {};
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGXFSZ, &ignore, &old_action);
  struct rlimit small = old_limit;
  small.rlim_cur = 64;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  int error = 0;
  try {
    rtpar::write_report_dir(second, out.string());
  } catch (const std::system_error& e) {
    error = e.code().value();
  }
  setrlimit(RLIMIT_FSIZE, &old_limit);
  sigaction(SIGXFSZ, &old_action, nullptr);

  CHECK(error == EFBIG);
  CHECK(read_file(out / "report.json") == rtpar::report_json(first) + "\n");
  CHECK(read_file(out / "jobs.csv") == rtpar::jobs_csv(first));
  CHECK(read_file(out / "trace.json") == rtpar::trace_json(first) + "\n");
  CHECK(temp_files(out).empty());

  // The same write without the limit replaces all three files.
  rtpar::write_report_dir(second, out.string());
  CHECK(read_file(out / "report.json") == rtpar::report_json(second) + "\n");
  CHECK(read_file(out / "jobs.csv") == rtpar::jobs_csv(second));
  CHECK(read_file(out / "trace.json") == rtpar::trace_json(second) + "\n");
  CHECK(temp_files(out).empty());
}

TEST_CASE("report: lock records are listed, and a hold overrun is named like a miss") {
  rtpar::RunReport report = sample_report();
  rtpar::LockRun lock;
  lock.channel = "state";
  lock.protocol = rtpar::LockProtocol::msrp;
  lock.declared_hold_ns = 5'000'000;
  lock.users.push_back({"hi", 200, 4'000'000, 1'000'000, 0});
  lock.users.push_back({"lo", 20, 6'000'000, 3'000'000, 2});
  report.locks.push_back(lock);
  CHECK(report.total_hold_overruns() == 2);
  const json doc = json::parse(rtpar::run_json(report));
  REQUIRE(doc["locks"].size() == 1);
  CHECK(keys(doc["locks"][0]) == words("channel protocol declared_hold_ns users"));
  CHECK(doc["locks"][0]["protocol"] == "msrp");
  CHECK(keys(doc["locks"][0]["users"][1]) ==
        words("task acquisitions max_hold_ns max_wait_ns hold_overruns"));
  CHECK(doc["locks"][0]["users"][1]["hold_overruns"] == 2);
  CHECK(doc["total_hold_overruns"] == 2);
  const std::string table = rtpar::stats_table(report);
  CHECK(table.find("2 lock hold overruns") != std::string::npos);
  CHECK(table.find("HOLD OVERRUN: lo held channel 'state' longer than its declared hold 5ms in 2 "
                   "accesses (longest 6ms)") != std::string::npos);
}

TEST_CASE("report: the plan lists every channel, a lock with its hold and protocol") {
  const rtpar::TaskSet set = rtpar::parse_taskset(
      "[system]\ncores = [0, 1]\nplanner = \"partitioned\"\n"
      "[[task]]\nname = \"a\"\nperiod = \"10ms\"\nwork = \"1ms\"\npriority = 20\nplaces = [0]\n"
      "[[task]]\nname = \"b\"\nperiod = \"10ms\"\nwork = \"1ms\"\npriority = 10\nplaces = [1]\n"
      "[[channel]]\nname = \"data\"\nsize = 16\nwriter = \"a\"\nreaders = [\"b\"]\n"
      "[[channel]]\nname = \"state\"\nkind = \"lock\"\nsize = 8\nwriter = \"b\"\n"
      "readers = [\"a\"]\nhold = \"100us\"\naccesses = 2\n",
      "c.toml");
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  const json doc = json::parse(rtpar::plan_json(plan, set));
  REQUIRE(doc["channels"].size() == 2);
  const json& data = doc["channels"][0];
  CHECK(keys(data) == words("name kind writer readers size_bytes memory_bytes"));
  CHECK(data["kind"] == "latest");
  CHECK(data["readers"] == json({"b"}));
  CHECK(data["memory_bytes"].get<std::uint64_t>() >= 16);
  const json& state = doc["channels"][1];
  CHECK(keys(state) ==
        words("name kind writer readers size_bytes memory_bytes hold_ns accesses protocol"));
  CHECK(state["protocol"] == "msrp");  // users on cores 0 and 1
  CHECK(state["hold_ns"] == 100000);
  CHECK(state["accesses"] == 2);
  const std::string table = rtpar::plan_table(plan, set);
  CHECK(table.find("state    lock    b → a") != std::string::npos);
  CHECK(table.find("msrp, hold 100us × 2") != std::string::npos);
}
