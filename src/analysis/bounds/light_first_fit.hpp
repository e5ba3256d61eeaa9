// light_first_fit.hpp — first-fit of light tasks on the cores the heavy tasks left.
//
// Federated scheduling (Li et al., ECRTS'14; RTWS §V-A) runs light tasks sequentially on the
// remaining cores under "a multiprocessor scheduling algorithm". rtpar's choice is partitioned
// fixed priority: first-fit by decreasing utilization, admitted by exact RTA (analysis/rta.hpp)
// under the final SCHED_FIFO priorities (analysis/priorities.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bounds/priorities.hpp"
#include "analysis/bounds/rta.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// realtime_cores is system.cores minus system.nonrt_cores, ascending: the cores a plan may use.
std::vector<int> realtime_cores(const SystemSpec& system);

// LightPlacement is where first-fit put one light task.
struct LightPlacement {
  std::optional<int> core;  // CPU id, or nullopt when no core admits the task
  // response is the exact RTA response on that core with all its final co-tenants — or, if that
  // RTA reached kRtaIterationCap after the task was admitted by the demand test, the least
  // deadline of its priority level there (a sound bound: the level shares one response R ≤ D).
  std::optional<Duration> response;
  int priority = 0;     // final SCHED_FIFO priority
  bool capped = false;  // unplaced, and some core's analysis stopped at kRtaIterationCap
};

// first_fit_light places the light tasks `light` (file indices) on `cores` (CPU ids, tried in the
// given order). Tasks are taken by decreasing utilization C/T, compared exactly as
// C_a·T_b vs C_b·T_a in 128-bit integers, ties by name then file order; each goes on the first
// core where every task, old and new, still passes exact RTA. Result is indexed by file index
// (size set.tasks.size(); entries of tasks not in `light` stay default).
//
// Cost: each trial is O(k) for a core of k tasks plus an exact RTA only where the cheap tests do
// not decide (light_first_fit.cpp): U > 1 rejects; a task whose demand at its deadline,
// f_i(D_i) = C_i + Σ_{hp} ⌈D_i/T_j⌉·C_j, is ≤ D_i passes (f_i is monotone, so its least fixed
// point is then ≤ D_i); f_i(D_i) is kept per task and updated by the newcomer's one term.
// The verdicts are those of running the exact RTA on every task of every trial.
//
// `above` are interferers of higher priority than every light task on every core — the kernel's
// server as the two RTA tasks of server_rta_tasks (server_interference.hpp), when it is charged —
// so every trial is decided with them in every hp set (exact RTA with the server on top), and
// the responses include them. Empty: the plain analysis.
std::vector<LightPlacement> first_fit_light(const TaskSet& set,
                                            const std::vector<std::size_t>& light,
                                            const std::vector<int>& cores,
                                            const PriorityScheme& priorities,
                                            const std::vector<RtaInterferer>& above = {});

}  // namespace rtpar::analysis
