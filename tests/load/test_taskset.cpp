// test_taskset.cpp — the task-set file format (parse_taskset, load_taskset) and validate_taskset.
//
// Every rejected input is checked for the field path and the exact line and column it reports:
// the location is the user-visible contract of rtpar's error messages.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "rtpar/ext/kernel.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/generate.hpp"
#include "rtpar/tools/topology.hpp"

using namespace std::chrono_literals;
using rtpar::InputError;
using rtpar::parse_taskset;
using rtpar::TaskSet;

namespace {

// kSystem is a two-core [system] (lines 1–2), so tests do not depend on the host's CPUs.
const std::string kSystem = "[system]\ncores = 2\n";
// kTask is a valid spin task.
const std::string kTask = "[[task]]\nname = \"a\"\nperiod = \"10ms\"\nwork = \"1ms\"\n";

// task_doc is kSystem, then a [[task]] (line 3) named "a" (line 4), then body from line 5.
std::string task_doc(const std::string& body) {
  return kSystem + "[[task]]\nname = \"a\"\n" + body;
}

// system_doc is [system] (line 1), then the given keys from line 2, then kTask.
std::string system_doc(const std::string& keys) { return "[system]\n" + keys + "\n" + kTask; }

// parse parses text as the file "t.toml".
TaskSet parse(const std::string& text) { return parse_taskset(text, "t.toml"); }

// BadInput is one rejected file and the error it must produce.
struct BadInput {
  std::string text;
  std::string field;
  int line;
  int column;
  std::string fragment;  // must appear in message()
};

// check_rejected parses each input and checks the InputError's field, location and message.
void check_rejected(const std::vector<BadInput>& inputs) {
  for (const BadInput& bad : inputs) {
    CAPTURE(bad.text);
    try {
      (void)parse(bad.text);
      FAIL_CHECK("accepted");
    } catch (const InputError& e) {
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(e.field() == bad.field);
      CHECK(e.where().file == "t.toml");
      CHECK(e.where().line == bad.line);
      CHECK(e.where().column == bad.column);
      CHECK(e.message().find(bad.fragment) != std::string::npos);
    }
  }
}

}  // namespace

TEST_CASE("taskset: defaults are filled in") {
  const TaskSet set = parse(task_doc("period = \"10ms\"\nwork = \"2ms\"\n"));
  CHECK(set.source == "t.toml");
  CHECK(set.system.cores == std::vector<int>{0, 1});
  CHECK(set.system.cores_from_count);
  CHECK(set.system.planner == rtpar::PlannerKind::federated);
  CHECK(set.system.delta == 1.5);
  CHECK(set.system.nonrt_cores.empty());
  CHECK(set.system.where.line == 1);
  REQUIRE(set.tasks.size() == 1);
  const rtpar::TaskSpec& t = set.tasks[0];
  CHECK(t.name == "a");
  CHECK(t.period == 10ms);
  CHECK(t.deadline == 10ms);
  CHECK(t.phase == 0ns);
  CHECK(t.work == 2ms);
  CHECK(t.span == 2ms);
  CHECK_FALSE(t.priority.has_value());
  CHECK(t.kernel == "spin");
  // The loader describes the kernel and creates no code (rtpar run / System::run do).
  CHECK(t.kernel_spec.source == rtpar::KernelSource::builtin);
  CHECK(t.kernel_spec.name == "spin");
  CHECK(t.code == nullptr);
  CHECK(t.runtime == rtpar::RuntimeKind::team);
  CHECK(t.overrun == rtpar::OverrunPolicy::queue);
  CHECK(t.where.file == "t.toml");
  CHECK(t.where.line == 3);
  CHECK(t.where.column == 1);
}

TEST_CASE("taskset: every key given; a bare 0 is a duration, any other bare integer is not") {
  const TaskSet set = parse(
      "[system]\ncores = [3, 1, 2]\nplanner = \"federated-ws\"\ndelta = 2\nnonrt_cores = [3]\n"
      "[[task]]\nname = \"cam.left-2_x\"\nperiod = \"10000us\"\ndeadline = \"8ms\"\nphase = 0\n"
      "work = \"1.5ms\"\nspan = \"0.25 ms\"\npriority = 42\nkernel = \"spin\"\n"
      "runtime = \"team\"\noverrun = \"skip\"\n");
  CHECK(set.system.cores == std::vector<int>{1, 2, 3});
  CHECK_FALSE(set.system.cores_from_count);
  CHECK(set.system.planner == rtpar::PlannerKind::federated_ws);
  CHECK(set.system.delta == 2.0);
  CHECK(set.system.nonrt_cores == std::vector<int>{3});
  const rtpar::TaskSpec& t = set.tasks.at(0);
  CHECK(t.name == "cam.left-2_x");
  CHECK(t.period == 10ms);
  CHECK(t.deadline == 8ms);
  CHECK(t.work == 1500us);
  CHECK(t.span == 250us);
  CHECK(t.priority == 42);
  CHECK(t.overrun == rtpar::OverrunPolicy::skip);
  CHECK(t.phase == 0ms);
  // A bare non-zero integer has no unit: an error with both readings as the hint.
  try {
    (void)parse("[system]\ncores = [0]\n[[task]]\nname = \"a\"\nperiod = 20\nwork = \"1ms\"\n");
    FAIL_CHECK("accepted");
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == "task[0].period");
    CHECK(e.where().line == 5);
    CHECK(e.message().find("a duration needs a unit: write \"20us\" or \"20ms\"") !=
          std::string::npos);
  }
}

TEST_CASE("taskset: a float delta, a span beyond the deadline, several tasks in order") {
  const TaskSet set =
      parse("[system]\ncores = [0, 1]\ndelta = 1.25\n" + kTask +
            "[[task]]\nname = \"b\"\nperiod = \"10ms\"\ndeadline = \"2ms\"\nwork = \"6ms\"\n"
            "span = \"3ms\"\n");
  CHECK(set.system.delta == 1.25);
  REQUIRE(set.tasks.size() == 2);
  CHECK(set.tasks[0].name == "a");
  CHECK(set.tasks[1].name == "b");
  CHECK(set.tasks[1].span == 3ms);  // L > D is valid input: the planner rejects it, not the parser
}

TEST_CASE("taskset: cores default to the CPUs this process may use") {
  const TaskSet without_system = parse(kTask);
  CHECK(without_system.system.cores == rtpar::online_cpus());
  CHECK_FALSE(without_system.system.cores_from_count);
  CHECK(without_system.system.where.line == 0);
  const TaskSet without_cores = parse("[system]\nplanner = \"federated\"\n" + kTask);
  CHECK(without_cores.system.cores == rtpar::online_cpus());
  CHECK_FALSE(without_cores.system.cores_from_count);
}

TEST_CASE("taskset: the segments kernel supplies work and span") {
  const std::string segments =
      "kernel = \"segments\"\n"
      "args.segments = [{strands = 12, length = \"500us\"}, {strands = 1, length = \"1ms\"}]\n";
  const TaskSet derived = parse(task_doc("period = \"20ms\"\n" + segments));
  CHECK(derived.tasks.at(0).work == 7ms);  // 12 × 0.5ms + 1 × 1ms
  CHECK(derived.tasks.at(0).span == 1500us);
  CHECK(derived.tasks.at(0).segments.size() == 2);
  // Declared C and L must agree with the structure: planners read one or the other.
  const TaskSet declared = parse(task_doc("period = \"20ms\"\nwork = \"7ms\"\n" + segments));
  CHECK(declared.tasks.at(0).work == 7ms);
  check_rejected({{task_doc("period = \"20ms\"\nwork = \"9ms\"\n" + segments), "task[0].work", 6, 8,
                   "disagrees with the segments"}});
  // A derived span that exceeds the declared work is reported at the kernel that derived it.
  check_rejected({{task_doc("period = \"20ms\"\nwork = \"1ms\"\n" + segments), "task[0].span", 7,
                   10, "must not exceed work"}});
}

TEST_CASE("taskset: [system] rejections point at the value") {
  check_rejected({
      {system_doc("cores = []"), "system.cores", 2, 9, "at least one CPU"},
      {system_doc("cores = [0, 1, 1]"), "system.cores", 2, 16, "listed twice"},
      {system_doc("cores = [1, 0, 0]"), "system.cores", 2, 16, "listed twice"},
      {system_doc("cores = [0, -1]"), "system.cores", 2, 13, "out of range"},
      {system_doc("cores = [0, 99999999999]"), "system.cores", 2, 13, "out of range"},
      {system_doc("cores = \"0-3\""), "system.cores", 2, 9, "expected an array"},
      {system_doc("cores = 1.5"), "system.cores", 2, 9, "expected an array"},
      {system_doc("cores = [0, \"1\"]"), "system.cores", 2, 13, "expected an integer CPU id"},
      {system_doc("cores = 0"), "system.cores", 2, 9, "between 1 and 8192"},
      {system_doc("cores = 9000"), "system.cores", 2, 9, "between 1 and 8192"},
      {system_doc("planner = \"edf\""), "system.planner", 2, 11, "unknown value \"edf\""},
      {system_doc("planner = 1"), "system.planner", 2, 11, "expected a string"},
      {system_doc("delta = 0"), "system.delta", 2, 9, "finite number > 0"},
      {system_doc("delta = -1.5"), "system.delta", 2, 9, "finite number > 0"},
      {system_doc("delta = nan"), "system.delta", 2, 9, "finite number > 0"},
      {system_doc("delta = inf"), "system.delta", 2, 9, "finite number > 0"},
      {system_doc("delta = \"1.5\""), "system.delta", 2, 9, "expected a number"},
      {system_doc("cores = [0, 1]\nnonrt_cores = [2]"), "system.nonrt_cores", 3, 16,
       "not one of system.cores"},
      {system_doc("cores = [0, 1, 2]\nnonrt_cores = [0, 0]"), "system.nonrt_cores", 3, 19,
       "listed twice"},
      {system_doc("cores = [0, 1]\nnonrt_cores = [1, 0]"), "system.nonrt_cores", 3, 15,
       "at least one must remain"},
      {system_doc("cores = 2\nnonrt_cores = 1"), "system.nonrt_cores", 3, 15, "expected an array"},
      {system_doc("threads = 4"), "system.threads", 2, 1, "unknown key \"threads\""},
      {"system = 5\n" + kTask, "system", 1, 10, "expected a table"},
  });
}

TEST_CASE("taskset: structural rejections") {
  check_rejected({
      {kSystem, "task", 0, 0, "no tasks"},
      {"title = \"x\"\n" + kTask, "title", 1, 1, "unknown top-level key"},
      {"task = 5\n" + kSystem, "task", 1, 8, "[[task]]"},
      {kSystem + "[task]\nname = \"a\"\n", "task", 3, 1, "[[task]]"},
      {"task = [1]\n" + kSystem, "task[0]", 1, 9, "expected a table"},
      // TOML syntax errors carry toml++'s description and no field.
      {"[[task]]\nname = \n", "", 2, 8, "expected value"},
      {kTask + "name = \"b\"\n", "", 5, 8, "redefine"},
  });
}

TEST_CASE("taskset: task name rules") {
  const std::string rest = "period = \"10ms\"\nwork = \"1us\"\n";
  check_rejected({
      {kSystem + "[[task]]\n" + rest, "task[0].name", 3, 1, "required"},
      {kSystem + "[[task]]\nname = \"\"\n" + rest, "task[0].name", 4, 8, "must not be empty"},
      {kSystem + "[[task]]\nname = \"my task\"\n" + rest, "task[0].name", 4, 8,
       "invalid task name \"my task\""},
      {kSystem + "[[task]]\nname = \"caf\u00e9\"\n" + rest, "task[0].name", 4, 8,
       "invalid task name"},
      {kSystem + "[[task]]\nname = 7\n" + rest, "task[0].name", 4, 8, "expected a string"},
      {task_doc(rest) + "[[task]]\nname = \"a\"\n" + rest, "task[1].name", 8, 8,
       "duplicate task name \"a\" (first used by task[0] at line 4)"},
  });
}

TEST_CASE("taskset: duration fields") {
  const std::string type_error = "expected a duration string with a unit, like \"10ms\"";
  check_rejected({
      {task_doc("work = \"1us\"\n"), "task[0].period", 3, 1, "required"},
      {task_doc("period = \"0ms\"\nwork = \"1us\"\n"), "task[0].period", 5, 10, "must be > 0"},
      {task_doc("period = 0\nwork = \"1us\"\n"), "task[0].period", 5, 10, "must be > 0"},
      {task_doc("period = 1.5\nwork = \"1us\"\n"), "task[0].period", 5, 10, type_error},
      {task_doc("period = true\nwork = \"1us\"\n"), "task[0].period", 5, 10, type_error},
      {task_doc("period = [1]\nwork = \"1us\"\n"), "task[0].period", 5, 10, type_error},
      {task_doc("period = -5\nwork = \"1us\"\n"), "task[0].period", 5, 10, "needs a unit"},
      {task_doc("period = \"-5ms\"\nwork = \"1us\"\n"), "task[0].period", 5, 10, "negative"},
      {task_doc("period = \"10\"\nwork = \"1us\"\n"), "task[0].period", 5, 10, "missing unit"},
      {task_doc("period = \"1e3ms\"\nwork = \"1us\"\n"), "task[0].period", 5, 10, "exponents"},
      {task_doc("period = 9223372036854776\nwork = \"1us\"\n"), "task[0].period", 5, 10,
       "needs a unit"},
      {task_doc("period = \"10ms\"\ndeadline = \"11ms\"\nwork = \"1us\"\n"), "task[0].deadline", 6,
       12, "must not exceed period"},
      {task_doc("period = \"10ms\"\ndeadline = 0\nwork = \"1us\"\n"), "task[0].deadline", 6, 12,
       "must be > 0"},
      {task_doc("period = \"10ms\"\nphase = \"-1ms\"\nwork = \"1us\"\n"), "task[0].phase", 6, 9,
       "negative"},
      {task_doc("period = \"10ms\"\nphase = -1\nwork = \"1us\"\n"), "task[0].phase", 6, 9,
       "needs a unit"},
      {task_doc("period = \"10ms\"\nwork = 0\n"), "task[0].work", 6, 8, "must be > 0"},
      {task_doc("period = \"10ms\"\n"), "task[0].work", 3, 1,
       "required (kernel 'spin' cannot derive it)"},
      {task_doc("period = \"10ms\"\nwork = \"5us\"\nspan = \"0us\"\n"), "task[0].span", 7, 8,
       "must be > 0"},
      {task_doc("period = \"10ms\"\nwork = \"1ms\"\nspan = \"2ms\"\n"), "task[0].span", 7, 8,
       "span (L = 2ms) must not exceed work (C = 1ms)"},
  });
  CHECK(parse(task_doc("period = \"10ms\"\nphase = 0\nwork = \"1us\"\n")).tasks[0].phase == 0ns);
}

TEST_CASE("taskset: wait policy of the task's team") {
  const std::string head = "period = \"10ms\"\nwork = \"1us\"\n";
  CHECK(parse(task_doc(head)).tasks[0].wait.kind == rtpar::WaitKind::hybrid);
  CHECK(parse(task_doc(head)).tasks[0].wait.spin_ns == 50us);
  CHECK(parse(task_doc(head + "wait = \"spin\"\n")).tasks[0].wait.kind == rtpar::WaitKind::spin);
  CHECK(parse(task_doc(head + "wait = \"block\"\n")).tasks[0].wait.kind == rtpar::WaitKind::block);
  const auto hybrid = parse(task_doc(head + "wait = \"hybrid\"\nwait_spin = \"5us\"\n"));
  CHECK(hybrid.tasks[0].wait.spin_ns == 5us);
}

TEST_CASE("taskset: priority, kernel, args, runtime, overrun and unknown keys") {
  const std::string head = "period = \"10ms\"\nwork = \"1us\"\n";  // lines 5–6
  check_rejected({
      {task_doc(head + "priority = 0\n"), "task[0].priority", 7, 12, "between 1 and 99"},
      {task_doc(head + "priority = 100\n"), "task[0].priority", 7, 12, "between 1 and 99"},
      {task_doc(head + "priority = 4294967297\n"), "task[0].priority", 7, 12, "between 1 and 99"},
      {task_doc(head + "priority = \"high\"\n"), "task[0].priority", 7, 12, "expected an integer"},
      {task_doc(head + "kernel = \"nope\"\n"), "task[0].kernel", 7, 10, "unknown kernel"},
      {task_doc(head + "kernel = 5\n"), "task[0].kernel", 7, 10, "expected a string"},
      {task_doc(head + "args = 5\n"), "task[0].args", 7, 8, "expected a table"},
      {task_doc(head + "runtime = \"openmp\"\n"), "task[0].runtime", 7, 11,
       "unknown value \"openmp\" (expected \"team\", \"steal\")"},
      {task_doc(head + "overrun = \"drop\"\n"), "task[0].overrun", 7, 11,
       "expected \"queue\", \"skip\""},
      {task_doc(head + "deadlne = \"5ms\"\n"), "task[0].deadlne", 7, 1, "unknown key \"deadlne\""},
      {task_doc(head + "wait = \"poll\"\n"), "task[0].wait", 7, 8, "expected \"spin\", \"block\""},
      {task_doc(head + "wait = \"spin\"\nwait_spin = \"10us\"\n"), "task[0].wait_spin", 8, 13,
       "only applies to wait = \"hybrid\""},
      {task_doc("period = \"10ms\"\nkernel = \"matmul\"\nargs = { n = 16 }\n"), "task[0].work", 3,
       1, "kernel 'matmul' cannot derive it"},
  });
}

TEST_CASE("taskset: kernel args errors come from the kernel, under the task's field path") {
  try {
    (void)parse(task_doc("period = \"10ms\"\nwork = \"1us\"\nargs = { x = 1 }\n"));
    FAIL("spin accepted args");
  } catch (const InputError& e) {
    CHECK(e.field() == "task[0].args.x");
    CHECK(e.where().line == 7);
  }
}

TEST_CASE("taskset: messages name the task and fields use its index") {
  try {
    (void)parse(kSystem + kTask + "[[task]]\nname = \"cam\"\nperiod = 0\nwork = \"1us\"\n");
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.field() == "task[1].period");
    CHECK(std::string(e.what()) == "t.toml:9:10: task[1].period: must be > 0 (task \"cam\")");
  }
}

TEST_CASE("taskset: load_taskset reads a file and reports its path") {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("rtpar_test_taskset_" + std::to_string(::getpid()) + ".toml");
  {
    std::ofstream out(path);
    out << kSystem << kTask;
  }
  const TaskSet set = rtpar::load_taskset(path.string());
  CHECK(set.source == path.string());
  CHECK(set.tasks.at(0).where.file == path.string());
  {
    std::ofstream out(path);
    out << kSystem << "[[task]]\nname = \"a\"\nperiod = \"0ms\"\nwork = \"1us\"\n";
  }
  try {
    (void)rtpar::load_taskset(path.string());
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.where().file == path.string());
    CHECK(e.where().line == 5);
  }
  std::filesystem::remove(path);
}

TEST_CASE("taskset: load_taskset on a missing file") {
  const std::string path = "/nonexistent-rtpar-dir/missing.toml";
  try {
    (void)rtpar::load_taskset(path);
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.where().file == path);
    CHECK(e.where().line == 0);
    CHECK(e.field().empty());
    CHECK(e.message().find("No such file or directory") != std::string::npos);
    CHECK(std::string(e.what()).rfind(path + ": cannot open", 0) == 0);
  }
}

TEST_CASE("taskset: the documented example loads") {
  const TaskSet set = rtpar::load_taskset(RTPAR_SOURCE_DIR "/tests/data/example.toml");
  REQUIRE(set.tasks.size() == 2);
  CHECK(set.system.cores == std::vector<int>{0, 1, 2});
  CHECK(set.tasks[0].name == "camera");
  CHECK(set.tasks[0].work == 13ms);
  CHECK(set.tasks[0].span == 2ms);
  CHECK(set.tasks[1].name == "heartbeat");
  CHECK(set.tasks[1].span == set.tasks[1].work);
}

namespace {

// NopKernel is a job that does nothing, for task sets built in code.
class NopKernel final : public rtpar::Kernel {
 public:
  void run(rtpar::JobContext& /*job*/) override {}
};

// valid_set is a correct set built in code, as rtpar::System users build them.
TaskSet valid_set() {
  TaskSet set;
  set.source = "<memory>";
  set.system.cores = {0, 1};
  rtpar::TaskSpec task;
  task.name = "a";
  task.period = 10ms;
  task.deadline = 10ms;
  task.work = 1ms;
  task.span = 1ms;
  task.code = std::make_shared<NopKernel>();
  set.tasks = {task};
  return set;
}

}  // namespace

TEST_CASE("taskset: validate_taskset applies the file rules to sets built in code") {
  CHECK_NOTHROW(rtpar::validate_taskset(valid_set()));
  struct Broken {
    std::function<void(TaskSet&)> edit;
    std::string field;
    std::string fragment;
  };
  // One broken rule per line reads better than the formatter's layout of these lambdas.
  // clang-format off
  const std::vector<Broken> cases = {
      {[](TaskSet& s) { s.tasks.clear(); }, "task", "no tasks"},
      {[](TaskSet& s) { s.tasks[0].name = ""; }, "task[0].name", "must not be empty"},
      {[](TaskSet& s) { s.tasks[0].name = "a/b"; }, "task[0].name", "invalid task name"},
      {[](TaskSet& s) { s.tasks.push_back(s.tasks[0]); }, "task[1].name",
       "(first used by task[0])"},
      {[](TaskSet& s) { s.tasks[0].period = 0ns; }, "task[0].period", "must be > 0"},
      {[](TaskSet& s) { s.tasks[0].deadline = -1ns; }, "task[0].deadline", "must be > 0"},
      {[](TaskSet& s) { s.tasks[0].deadline = 11ms; }, "task[0].deadline", "must not exceed"},
      {[](TaskSet& s) { s.tasks[0].phase = -1ms; }, "task[0].phase", "negative"},
      {[](TaskSet& s) { s.tasks[0].work = 0ns; }, "task[0].work", "must be > 0"},
      {[](TaskSet& s) { s.tasks[0].span = 0ns; }, "task[0].span", "must be > 0"},
      {[](TaskSet& s) { s.tasks[0].span = 2ms; }, "task[0].span", "must not exceed work"},
      {[](TaskSet& s) { s.tasks[0].priority = 0; }, "task[0].priority", "between 1 and 99"},
      {[](TaskSet& s) { s.system.cores.clear(); }, "system.cores", "at least one CPU"},
      {[](TaskSet& s) { s.system.cores = {0, 0}; }, "system.cores", "listed twice"},
      {[](TaskSet& s) { s.system.cores = {1, 0}; }, "system.cores", "ascending"},
      {[](TaskSet& s) { s.system.cores = {-1, 0}; }, "system.cores", "out of range"},
      {[](TaskSet& s) { s.system.nonrt_cores = {2}; }, "system.nonrt_cores", "not one of"},
      {[](TaskSet& s) { s.system.nonrt_cores = {1, 1}; }, "system.nonrt_cores", "twice"},
      {[](TaskSet& s) { s.system.nonrt_cores = {0, 1}; }, "system.nonrt_cores", "must remain"},
      {[](TaskSet& s) { s.system.delta = 0.0; }, "system.delta", "finite number > 0"},
      {[](TaskSet& s) { s.system.delta = std::numeric_limits<double>::infinity(); },
       "system.delta", "finite number > 0"},
  };
  // clang-format on
  for (const Broken& broken : cases) {
    CAPTURE(broken.field);
    TaskSet set = valid_set();
    broken.edit(set);
    try {
      rtpar::validate_taskset(set);
      FAIL_CHECK("accepted");
    } catch (const InputError& e) {
      CHECK(e.field() == broken.field);
      CHECK(e.where().file == "<memory>");  // no locations: the source name, line 0
      CHECK(e.where().line == 0);
      CHECK(e.message().find(broken.fragment) != std::string::npos);
    }
  }
}

TEST_CASE("taskset: validate_taskset reports a task's own location when it has one") {
  TaskSet set = valid_set();
  set.tasks[0].where = rtpar::SourceLocation{"app.toml", 7, 3};
  set.tasks[0].work = 0ns;
  try {
    rtpar::validate_taskset(set);
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "app.toml:7:3: task[0].work: must be > 0 (task \"a\")");
  }
}

TEST_CASE("taskset: InputError and EnvironmentError text") {
  using rtpar::SourceLocation;
  CHECK(std::string(
            InputError(SourceLocation{"f.toml", 3, 7}, "task[0].period", "must be > 0").what()) ==
        "f.toml:3:7: task[0].period: must be > 0");
  CHECK(std::string(InputError(SourceLocation{"f.toml", 0, 0}, "system.cores", "bad").what()) ==
        "f.toml: system.cores: bad");
  CHECK(std::string(InputError(SourceLocation{"f.toml", 3, 7}, "", "syntax").what()) ==
        "f.toml:3:7: syntax");
  CHECK(std::string(InputError(SourceLocation{}, "--duration", "bad").what()) == "--duration: bad");
  const InputError e(SourceLocation{"f.toml", 2, 1}, "x", "m");
  CHECK(e.where().line == 2);
  CHECK(e.field() == "x");
  CHECK(e.message() == "m");
  const rtpar::EnvironmentError env("SCHED_FIFO refused", "run as root or use --best-effort");
  CHECK(std::string(env.what()) == "SCHED_FIFO refused");
  CHECK(env.hint() == "run as root or use --best-effort");
}

TEST_CASE("taskset: enum names match the file's spelling") {
  CHECK(std::string(rtpar::to_string(rtpar::PlannerKind::federated)) == "federated");
  CHECK(std::string(rtpar::to_string(rtpar::PlannerKind::federated_ws)) == "federated-ws");
  CHECK(std::string(rtpar::to_string(rtpar::OverrunPolicy::queue)) == "queue");
  CHECK(std::string(rtpar::to_string(rtpar::OverrunPolicy::skip)) == "skip");
  CHECK(std::string(rtpar::to_string(rtpar::RuntimeKind::team)) == "team");
}

TEST_CASE("taskset: budget modes, the system default and the margin") {
  const TaskSet plain = parse(kSystem + kTask);
  CHECK_FALSE(plain.tasks[0].budget.has_value());
  CHECK_FALSE(plain.system.budget.has_value());
  CHECK(plain.system.budget_margin == 100us);
  const TaskSet set = parse("[system]\ncores = 2\nbudget = \"monitor\"\nbudget_margin = \"5us\"\n" +
                            kTask + "budget = \"enforce\"\n");
  CHECK(set.system.budget == rtpar::BudgetMode::monitor);
  CHECK(set.system.budget_margin == 5us);
  CHECK(set.tasks[0].budget == rtpar::BudgetMode::enforce);
  try {
    (void)parse(kSystem + kTask + "budget = \"strict\"\n");
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.field() == "task[0].budget");
    CHECK(e.where().line == 7);
  }
}

TEST_CASE("taskset: [system] shared_wait (fork-join-rta, decision F15), and its round trip") {
  CHECK_FALSE(parse(kSystem + kTask).system.shared_wait.has_value());
  const TaskSet set = parse("[system]\ncores = 2\nshared_wait = \"block\"\n" + kTask);
  REQUIRE(set.system.shared_wait.has_value());
  CHECK(*set.system.shared_wait == rtpar::WaitKind::block);
  const std::string text = rtpar::gen::to_toml(set, "");
  CHECK(text.find("shared_wait = \"block\"") != std::string::npos);
  CHECK(parse(text).system.shared_wait == rtpar::WaitKind::block);
  try {
    (void)parse("[system]\ncores = 2\nshared_wait = \"sleep\"\n" + kTask);
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.field() == "system.shared_wait");
    CHECK(e.where().line == 3);
  }
}

TEST_CASE("taskset: spin's fault injection args") {
  const TaskSet set =
      parse(task_doc("period = \"10ms\"\nwork = \"1ms\"\n"
                     "args = { overrun_every = 5, overrun_factor = 4 }\n"));
  CHECK(set.tasks[0].kernel_spec.integer("overrun_every") == 5);
  CHECK(set.tasks[0].kernel_spec.real("overrun_factor") == 4.0);
  try {
    (void)parse(task_doc("period = \"10ms\"\nwork = \"1ms\"\nargs = { overrun_factor = 4 }\n"));
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.field() == "task[0].args.overrun_every");
  }
}
