// task.hpp — OpenMP tasks: the Task record every thread runs in (implicit or explicit) and the
// per-team task scheduler the core calls at task scheduling points. Owned by H-tasks; the fields
// and functions marked CORE are used by the core (runtime.hpp) and keep their names.
#pragma once

#include <atomic>
#include <cstdint>

#include "omp/icv.hpp"

namespace rtpar::omp {

struct TeamState;
struct ThreadState;

// Task is one OpenMP task: the implicit task of a team member or an explicit task.
struct Task {
  Icvs icv;                   // CORE: the task's data-environment ICVs
  TeamState* team = nullptr;  // CORE: the team whose region the task belongs to
  Task* parent = nullptr;     // CORE: the generating task (nullptr for an initial task)
  bool final_task = false;    // CORE: omp_in_final()
  bool implicit = true;       // CORE: an implicit task
};

// TeamTasks is a team's explicit-task scheduler state, embedded in TeamState.
struct TeamTasks {
  std::atomic<std::int64_t> outstanding{0};  // created and not yet completed tasks
};

// task_init_implicit makes t the implicit task of a member of `team` (CORE; at region start).
void task_init_implicit(Task& t, TeamState* team, const Icvs& icv, Task* parent) noexcept;

// team_tasks_init prepares a team's scheduler once, when the team is created (CORE).
void team_tasks_init(TeamTasks& tasks, int nthreads);

// team_tasks_begin_region resets per-region state; called by the master before the fork (CORE).
void team_tasks_begin_region(TeamTasks& tasks) noexcept;

// task_run_one runs one queued task of the caller's team, if any, and says whether it ran one
// (CORE: barrier waiters call it).
bool task_run_one(ThreadState& ts);

// tasks_drain runs or waits for the team's tasks until none is outstanding (CORE: region end and
// the last arriver of a barrier).
void tasks_drain(ThreadState& ts);

// taskgroup_cancel activates cancellation of the innermost taskgroup (CORE: GOMP_cancel).
// Returns true when the taskgroup is (now) cancelled.
bool taskgroup_cancel(ThreadState& ts) noexcept;

// taskgroup_cancelled says whether the encountering task's taskgroup is cancelled (CORE:
// GOMP_cancellation_point(8)).
bool taskgroup_cancelled(ThreadState& ts) noexcept;

}  // namespace rtpar::omp
