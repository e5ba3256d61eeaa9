// test_taskset_structure.cpp — the parts of the task-set format added for the shared-core planners
// and the work-stealing runtime: [[task.segment]], [[task.node]], places, threads, [task.steal],
// and the [system] keys planner / fit / sockets / fork_join_overhead.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rtpar/taskset.hpp"

using namespace std::chrono_literals;
using rtpar::InputError;
using rtpar::TaskSet;

namespace {

// parse parses text as the file "s.toml".
TaskSet parse(const std::string& text) { return rtpar::parse_taskset(text, "s.toml"); }

// kHead is a four-core [system] (lines 1–2) and the start of task "a" (lines 3–5); tests append
// keys from line 6.
const std::string kHead = "[system]\ncores = 4\n[[task]]\nname = \"a\"\nperiod = \"20ms\"\n";

// Rejected is one bad input and the field, line, column and message fragment it must produce.
struct Rejected {
  std::string text;
  std::string field;
  int line;
  int column;
  std::string fragment;
};

void check_rejected(const std::vector<Rejected>& inputs) {
  for (const Rejected& bad : inputs) {
    CAPTURE(bad.text);
    try {
      (void)parse(bad.text);
      FAIL_CHECK("accepted");
    } catch (const InputError& e) {
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(e.field() == bad.field);
      CHECK(e.where().line == bad.line);
      CHECK(e.where().column == bad.column);
      CHECK(e.message().find(bad.fragment) != std::string::npos);
    }
  }
}

}  // namespace

TEST_CASE("structure: [[task.segment]] gives C, L, the structure and a segments kernel") {
  const TaskSet set = parse(kHead +
                            "[[task.segment]]\nstrands = 1\nlength = \"1ms\"\n"
                            "[[task.segment]]\nstrands = 4\nlength = \"2ms\"\n");
  const rtpar::TaskSpec& t = set.tasks.at(0);
  REQUIRE(t.segments.size() == 2);
  CHECK(t.segments[1].strands == 4);
  CHECK(t.segments[1].length == 2ms);
  CHECK(t.segments[1].where.line == 9);
  CHECK(t.work == 9ms);  // 1×1 + 4×2
  CHECK(t.span == 3ms);  // 1 + 2
  CHECK(t.kernel == "segments");
  CHECK(t.kernel_spec.name == "segments");
  CHECK(t.code == nullptr);  // described only: created when a run starts
}

TEST_CASE("structure: the segments kernel's args become the task's structure") {
  const TaskSet set = parse(kHead +
                            "kernel = \"segments\"\n"
                            "args.segments = [{strands = 3, length = \"1ms\"}]\n");
  REQUIRE(set.tasks.at(0).segments.size() == 1);
  CHECK(set.tasks.at(0).segments[0].strands == 3);
  CHECK(set.tasks.at(0).work == 3ms);
}

TEST_CASE("structure: [[task.node]] gives an acyclic DAG, C = Σ lengths and L = longest path") {
  // a(1) → b(2), a → c(5), b → d(1), c → d: longest path a-c-d = 7 ms; C = 9 ms.
  const TaskSet set =
      parse(kHead +
            "[[task.node]]\nname = \"d\"\nlength = \"1ms\"\nafter = [\"b\", \"c\"]\n"
            "[[task.node]]\nname = \"a\"\nlength = \"1ms\"\n"
            "[[task.node]]\nname = \"b\"\nlength = \"2ms\"\nafter = [\"a\"]\n"
            "[[task.node]]\nname = \"c\"\nlength = \"5ms\"\nafter = [\"a\"]\n");
  const rtpar::TaskSpec& t = set.tasks.at(0);
  REQUIRE(t.dag);
  REQUIRE(t.dag->nodes.size() == 4);
  CHECK(t.dag->nodes[0].after == std::vector<int>{2, 3});
  CHECK(t.work == 9ms);
  CHECK(t.span == 7ms);
  CHECK(t.kernel_spec.source == rtpar::KernelSource::none);  // analysis only: no kernel named
}

TEST_CASE("structure: places, threads, runtime steal and its budget") {
  const TaskSet set = parse(kHead +
                            "work = \"1ms\"\nplaces = [3, 1]\nthreads = 4\nruntime = \"steal\"\n"
                            "steal = { max_depth = 64, stack_bytes = 1048576, "
                            "frames_per_worker = 100 }\n");
  const rtpar::TaskSpec& t = set.tasks.at(0);
  CHECK(t.places == std::vector<int>{1, 3});
  CHECK(t.threads == 4);
  CHECK(t.runtime == rtpar::RuntimeKind::steal);
  CHECK(t.steal.max_depth == 64);
  CHECK(t.steal.stack_bytes == 1048576);
  CHECK(t.steal.frames_per_worker == 100);
}

TEST_CASE("structure: [system] planner, fit, sockets and fork_join_overhead") {
  const TaskSet set = parse(
      "[system]\ncores = 8\nplanner = \"fork-join-rta\"\nfit = \"worst-fit\"\nsockets = 2\n"
      "fork_join_overhead = \"20us\"\n[[task]]\nname = \"a\"\nperiod = \"1ms\"\nwork = \"1us\"\n");
  CHECK(set.system.planner == rtpar::PlannerKind::fork_join_rta);
  CHECK(set.system.fit == rtpar::FitKind::worst_fit);
  CHECK(set.system.sockets == 2);
  CHECK(set.system.fork_join_overhead == 20us);
  CHECK(std::string(rtpar::to_string(rtpar::PlannerKind::decomposition)) == "decomposition");
  CHECK(std::string(rtpar::to_string(rtpar::FitKind::fbb_ffd)) == "fbb-ffd");
}

TEST_CASE("structure: bad structure is reported at the offending value") {
  const std::string seg = "[[task.segment]]\n";
  check_rejected({
      {kHead + seg + "strands = 0\nlength = \"1ms\"\n", "task[0].segment[0].strands", 7, 11,
       "between 1 and"},
      {kHead + seg + "strands = 2\n", "task[0].segment[0].length", 6, 1, "required"},
      {kHead + seg + "strands = 2\nlength = \"0ms\"\n", "task[0].segment[0].length", 8, 10,
       "must be > 0"},
      {kHead + seg + "strands = 2\nlength = \"1ms\"\nwidth = 3\n", "task[0].segment[0].width", 9, 1,
       "unknown key"},
      {kHead + "work = \"5ms\"\n" + seg + "strands = 2\nlength = \"1ms\"\n", "task[0].work", 6, 8,
       "disagrees with the segments"},
      {kHead + "[[task.node]]\nname = \"x\"\nlength = \"1ms\"\nafter = [\"y\"]\n",
       "task[0].node[0].after", 9, 10, "no node named \"y\""},
      {kHead + "[[task.node]]\nname = \"x\"\nlength = \"1ms\"\nafter = [\"y\"]\n"
               "[[task.node]]\nname = \"y\"\nlength = \"1ms\"\nafter = [\"x\"]\n",
       "task[0].node[0].after", 9, 9, "cycle"},
      {kHead + "[[task.node]]\nname = \"x\"\nlength = \"1ms\"\n[[task.node]]\nname = \"x\"\n"
               "length = \"1ms\"\n",
       "task[0].node[1].name", 10, 8, "duplicate node name"},
      {kHead + seg +
           "strands = 1\nlength = \"1ms\"\n[[task.node]]\nname = \"x\"\nlength = \"1ms\"\n",
       "task[0].node", 9, 1, "not both"},
      {kHead + "work = \"1ms\"\nplaces = [1, 1]\n", "task[0].places[1]", 7, 14, "listed twice"},
      {kHead + "work = \"1ms\"\nplaces = []\n", "task[0].places", 7, 10, "at least one CPU"},
      {kHead + "work = \"1ms\"\nthreads = 0\n", "task[0].threads", 7, 11, "between 1 and 1024"},
      {kHead + "work = \"1ms\"\nsteal = { max_depth = 0 }\n", "task[0].steal.max_depth", 7, 23,
       "between 1 and"},
      {kHead + "work = \"1ms\"\nsteal = { depth = 3 }\n", "task[0].steal.depth", 7, 11,
       "unknown key"},
      {"[system]\ncores = 2\nsockets = 3\n" + kHead.substr(19) + "work = \"1ms\"\n",
       "system.sockets", 3, 11, "between 1 and the number of cores"},
      {"[system]\ncores = 2\nfit = \"best-fit\"\n" + kHead.substr(19) + "work = \"1ms\"\n",
       "system.fit", 3, 7, "unknown value"},
      {"[system]\ncores = 2\nplanner = \"edf\"\n" + kHead.substr(19) + "work = \"1ms\"\n",
       "system.planner", 3, 11, "\"partitioned\""},
  });
}
