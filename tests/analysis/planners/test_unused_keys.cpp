// test_unused_keys.cpp — keys one planner reads and another ignores are never silently ignored:
// `places` and `threads` under a planner other than partitioned give a plan note naming the tasks.
#include <doctest/doctest.h>

#include <string>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

TEST_CASE("unused keys: places and threads are named in a note by every planner but partitioned") {
  const rtpar::TaskSet set = rtpar::parse_taskset(
      "[system]\ncores = [0, 1]\n"
      "[[task]]\nname = \"a\"\nperiod = \"10ms\"\nwork = \"1ms\"\npriority = 10\nplaces = [1]\n"
      "[[task]]\nname = \"b\"\nperiod = \"10ms\"\nwork = \"1ms\"\npriority = 11\nplaces = [0]\n"
      "threads = 2\n"
      "[[task]]\nname = \"c\"\nperiod = \"10ms\"\nwork = \"1ms\"\npriority = 12\nplaces = [0]\n",
      "u.toml");
  const auto noted = [](const rtpar::Plan& plan) {
    for (const std::string& n : plan.notes) {
      if (n.find("`places` and `threads` are read by the partitioned planner only") == 0) return n;
    }
    return std::string();
  };
  for (const rtpar::PlannerKind kind :
       {rtpar::PlannerKind::federated, rtpar::PlannerKind::federated_ws,
        rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta}) {
    CAPTURE(rtpar::to_string(kind));
    const std::string note = noted(rtpar::plan_with(kind, set));
    CHECK(note.find("'a', 'b', 'c'") != std::string::npos);
    CHECK(note.find(std::string("the ") + rtpar::to_string(kind) + " planner") !=
          std::string::npos);
  }
  CHECK(noted(rtpar::plan_with(rtpar::PlannerKind::partitioned, set)).empty());
}

TEST_CASE("unused keys: planners that need a structure name the planners that do not") {
  rtpar::TaskSet set = rtpar::parse_taskset(
      "[system]\ncores = [0, 1]\n"
      "[[task]]\nname = \"a\"\nperiod = \"10ms\"\nwork = \"4ms\"\nspan = \"2ms\"\n",
      "s.toml");
  for (const rtpar::PlannerKind kind :
       {rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta}) {
    CAPTURE(rtpar::to_string(kind));
    set.tasks[0].kernel = "spin";
    rtpar::Plan plan = rtpar::plan_with(kind, set);
    REQUIRE(plan.tasks[0].reason.has_value());
    CHECK(plan.tasks[0].reason->find("without one, planner = \"federated\", \"federated-ws\" or "
                                     "\"partitioned\" plan it from C and L alone") !=
          std::string::npos);
    // An OpenMP kernel has no structure to give: the reason says so (the planners read only the
    // kernel's name, so no shared object is needed here).
    set.tasks[0].kernel = "omp:./libx.so:job";
    plan = rtpar::plan_with(kind, set);
    REQUIRE(plan.tasks[0].reason.has_value());
    CHECK(plan.tasks[0].reason->find("an `omp:` kernel's structure is the OpenMP program's own") !=
          std::string::npos);
  }
}
