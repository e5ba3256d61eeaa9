// task.cpp — explicit tasks (placeholder until the task scheduler lands: no explicit task is
// ever queued, so the scheduling hooks have nothing to do).
#include "omp/runtime.hpp"

namespace rtpar::omp {

void task_init_implicit(Task& t, TeamState* team, const Icvs& icv, Task* parent) noexcept {
  t.icv = icv;
  t.team = team;
  t.parent = parent;
  t.final_task = false;
  t.implicit = true;
}

void team_tasks_init(TeamTasks& /*tasks*/, int /*nthreads*/) {}
void team_tasks_begin_region(TeamTasks& /*tasks*/) noexcept {}
bool task_run_one(ThreadState& /*ts*/) { return false; }
void tasks_drain(ThreadState& /*ts*/) {}
bool taskgroup_cancel(ThreadState& /*ts*/) noexcept { return false; }
bool taskgroup_cancelled(ThreadState& /*ts*/) noexcept { return false; }

}  // namespace rtpar::omp
