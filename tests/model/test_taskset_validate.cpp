// test_taskset_validate.cpp — the task-set rules at the edge of int64: a structure whose total work
// or longest path does not fit a Duration is refused (its sums saturate at 2^63 − 1 ns, and a
// planner reading the clamped C or L would admit a task it cannot schedule).
#include <doctest/doctest.h>

#include <string>

#include "model/taskset_check.hpp"
#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"

namespace {

// kHead is a two-core [system] and a task "a" with a period of 2^63 − 1 ns.
const std::string kHead =
    "[system]\ncores = [0, 1]\n[[task]]\nname = \"a\"\nperiod = \"9223372036854775807ns\"\n";

// rejection parses text and returns the InputError's what() (failing when it parses).
std::string rejection(const std::string& text) {
  try {
    (void)rtpar::parse_taskset(text, "big.toml");
  } catch (const rtpar::InputError& e) {
    return e.what();
  }
  FAIL("accepted: " << text);
  return {};
}

}  // namespace

TEST_CASE("taskset rules: segments whose total work passes 2^63 − 1 ns are refused") {
  // 10^6 strands of 2^62 ns: C = 2^82 ns, clamped to 2^63 − 1 = D before, so federated took it
  // for a light task with R = C = D and admitted it.
  const std::string e = rejection(
      kHead + "[[task.segment]]\nstrands = 1000000\nlength = \"4611686018427387904ns\"\n");
  CHECK(e.find("big.toml") == 0);
  CHECK(e.find("task[0].work: the segments' total work reaches 2^63 − 1 ns") != std::string::npos);
  // Just below the limit is accepted: 2 · (2^62 − 1) = 2^63 − 2.
  const rtpar::TaskSet ok = rtpar::parse_taskset(
      kHead + "[[task.segment]]\nstrands = 2\nlength = \"4611686018427387903ns\"\n", "ok.toml");
  CHECK(ok.tasks[0].work.count() == INT64_MAX - 1);
}

TEST_CASE("taskset rules: a DAG whose longest path passes 2^63 − 1 ns is refused") {
  // Three chained nodes of 2^62 ns: L = 3·2^62, clamped to D before; the synchronous form then
  // overflowed its earliest starts and fork-join-rta admitted the task with R = D/2.
  std::string text = kHead;
  for (const char* node : {"x", "y", "z"}) {
    text += std::string("[[task.node]]\nname = \"") + node + "\"\nlength = \"4611686018427387904ns\"\n";
    if (node[0] != 'x') text += std::string("after = [\"") + static_cast<char>(node[0] - 1) + "\"]\n";
  }
  CHECK(rejection(text).find("task[0].work: the nodes' total work reaches") != std::string::npos);
  // A set built in code goes through the same rule when a planner checks its parameters.
  rtpar::TaskSet set;
  set.source = "<code>";
  set.system.cores = {0};
  rtpar::TaskSpec t;
  t.name = "a";
  t.period = t.deadline = rtpar::Duration(INT64_MAX);
  t.segments = {{1'000'000, rtpar::Duration(std::int64_t{1} << 62), {}}};
  t.work = t.span = rtpar::Duration(INT64_MAX);
  t.span = rtpar::Duration(std::int64_t{1} << 62);
  set.tasks.push_back(t);
  CHECK_THROWS_AS(rtpar::model::check_task_parameters(set), rtpar::InputError);
}
