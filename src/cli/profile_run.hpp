// profile_run.hpp — `rtpar profile`'s measurements: one task of a set run alone, through the same
// kernel instantiation and executor as `rtpar run`, first on one core (its work, as CPU time),
// then on the cores its plan gives it (its response; its online work and span for steal tasks).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::cli {

// ProfileSettings are the knobs of every profiling run.
struct ProfileSettings {
  std::int64_t runs = 200;   // jobs per run (--runs)
  bool best_effort = false;  // SCHED_OTHER instead of SCHED_FIFO (--best-effort)
};

// TaskMeasurement is what was measured for one task.
struct TaskMeasurement {
  std::string name;
  int cpu = -1;                                // the core of the one-core run
  Duration one_core_period{0};                 // release period of the one-core run
  std::vector<std::int64_t> cpu_ns;            // CPU time of each job on one core
  std::vector<std::int64_t> one_core_wall_ns;  // finish − start of each of those jobs
  bool team_ran = false;                       // false: the plan gave the task no cores
  std::vector<int> team_cores;                 // every CPU a thread of the team run used
  int team_threads = 0;                        // threads of the team run (master included)
  TaskRun team;                                // the team run's records (and steal profile)
  bool interrupted = false;                    // a stop signal ended a run early
  std::string failure;                         // what the task's code threw, if it did
};

// profile_task measures set.tasks[index] alone with `planned` (its TaskPlan in the plan of the
// whole set made by `planner`) and returns what it measured. The task keeps its
// kernel, runtime, wait policy and overrun policy; its phase becomes 0, it gets no channels, and
// the one-core run releases it every one_core_period(task). Throws what execute throws
// (EnvironmentError when SCHED_FIFO is refused); a task whose code throws ends with `failure` set.
TaskMeasurement profile_task(const TaskSet& set, std::size_t index, const TaskPlan& planned,
                             PlannerKind planner, const ProfileSettings& settings);

// one_core_period is the release period of the one-core run: max(T, 2·C) with the declared C, so
// that a job that needs its declared work leaves the core idle half the time (no back-to-back jobs
// at SCHED_FIFO, which RT throttling would cut) and releases never queue.
Duration one_core_period(const TaskSpec& task);

// team_cpus lists every CPU a TaskPlan pins a thread to (cores, team threads, strands), sorted.
std::vector<int> team_cpus(const TaskPlan& planned);

}  // namespace rtpar::cli
