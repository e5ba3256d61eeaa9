// overhead_fixtures.hpp — task sets and overhead profiles shared by the tests of the overhead and
// interference charges (planners and simulator).
#pragma once

#include <initializer_list>
#include <string>

#include "rtpar/tools/overhead.hpp"
#include "rtpar/wait_policy.hpp"

namespace rtpar::testing {

// kDemoTask is the demo's vision task: C = 21 ms, L = 6 ms, T = D = 20 ms, three segments (1, 6
// and 1 strands of 1.5, 3 and 1.5 ms).
inline constexpr const char* kDemoTask = R"(
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

// demo_set is the demo on cores {0, 1}, with `planner` in [system] unless it is empty, and
// `extra` appended to the task's table (e.g. places for partitioned).
inline std::string demo_set(const std::string& planner = "", const std::string& extra = "") {
  std::string text = "[system]\ncores = [0, 1]\n";
  if (!planner.empty()) text += "planner = \"" + planner + "\"\n";
  return text + kDemoTask + extra;
}

// one_core_task is task "p" (C = 2 ms, T = 10 ms) on core 0 of cores {0, 1} under partitioned,
// with `extra` lines added to its table (a deadline, a priority; none: EDF with D = T).
inline std::string one_core_task(const std::string& extra = "") {
  return "[system]\ncores = [0, 1]\nplanner = \"partitioned\"\n[[task]]\nname = \"p\"\n"
         "period = \"10ms\"\nwork = \"2ms\"\nplaces = [0]\n" +
         extra;
}

// costless_profile is an overhead profile whose release, fork/join and barrier costs are all 0
// for every policy and team sizes 1 and 2, with the supply entries given: only the supply loss
// changes a bound or a schedule. Its source is "supply.json".
inline OverheadProfile costless_profile(std::initializer_list<SupplyLoss> supply) {
  OverheadProfile p;
  p.source = "supply.json";
  p.supply = supply;
  for (const WaitKind w : {WaitKind::spin, WaitKind::block, WaitKind::hybrid}) {
    for (const int n : {1, 2}) {
      ForkJoinCost c;
      c.threads = n;
      c.wait = w;
      p.fork_join.push_back(c);
      p.barrier.push_back(c);
      c.parked = true;
      p.release.push_back(c);
    }
  }
  return p;
}

}  // namespace rtpar::testing
