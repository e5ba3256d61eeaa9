// sim_team_set.hpp — the small task set the simulator's option tests share (tests/sim/).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar::testing {

// sim_team_set is one task "t" of 2 strands × 10 µs on cores {0, 1}, T = D = 19 µs (a federated
// team of 2, one region), plus, with `other`, a sequential task "other" (C = 3 µs, T = D = 7 µs)
// on core 2 that never meets it: it changes the order of events, not t's schedule.
inline TaskSet sim_team_set(bool other = false) {
  TaskSet set;
  set.source = "<sim team set>";
  set.system.cores = other ? std::vector<int>{0, 1, 2} : std::vector<int>{0, 1};
  TaskSpec t;
  t.name = "t";
  t.period = t.deadline = Duration(19'000);
  t.segments = {{2, Duration(10'000), {}}};
  t.work = Duration(20'000);
  t.span = Duration(10'000);
  set.tasks.push_back(t);
  if (other) {
    TaskSpec o;
    o.name = "other";
    o.period = o.deadline = Duration(7'000);
    o.work = o.span = Duration(3'000);
    set.tasks.push_back(o);
  }
  validate_taskset(set);
  return set;
}

// bag_set is one DAG task "bag" of four independent 1 µs nodes, D = 3 µs, T = 100 µs, on cores
// {0, 1}: on one core a job takes 4 µs (every job misses), on two 2 µs (federated gives it a team
// of ⌈(C − L)/(D − L)⌉ = ⌈3/2⌉ = 2 threads).
inline TaskSet bag_set() {
  TaskSet set;
  set.source = "<bag set>";
  set.system.cores = {0, 1};
  TaskSpec t;
  t.name = "bag";
  t.period = Duration(100'000);
  t.deadline = Duration(3'000);
  DagSpec dag;
  for (int i = 0; i < 4; ++i)
    dag.nodes.push_back({"n" + std::to_string(i), Duration(1'000), {}, {}});
  t.dag = dag;
  t.work = Duration(4'000);
  t.span = Duration(1'000);
  set.tasks.push_back(t);
  validate_taskset(set);
  return set;
}

// first_task_responses simulates `plan` of `set` for 1 ms with `options` (jobs recorded) and
// returns the responses of its first task's jobs, in release order.
inline std::vector<std::int64_t> first_task_responses(const Plan& plan, const TaskSet& set,
                                                      SimOptions options) {
  options.record_jobs = true;
  options.horizon_ns = 1'000'000;
  const SimResult r = simulate_plan(plan, set, options);
  std::vector<std::int64_t> out;
  for (const SimJob& j : r.tasks.at(0).jobs_log) out.push_back(j.finish_ns - j.release_ns);
  return out;
}

// all_equal says whether v is non-empty and every element is x.
inline bool all_equal(const std::vector<std::int64_t>& v, std::int64_t x) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [x](std::int64_t r) { return r == x; });
}

}  // namespace rtpar::testing
