// task_group.cpp — `taskgroup` (OpenMP 5.0 §2.17.6) and `cancel taskgroup` (§2.18.1).
//
// A task's tg_current is its innermost taskgroup; a task created inside belongs to it
// (tg_member) and so do its descendants (they start with tg_current = tg_member), so the group's
// count covers the whole taskgroup set. GOMP_taskgroup_end runs tasks until the count is 0.
// Cancelling a group drops its tasks (and those of nested groups) that have not started.
#include <new>

#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace task_detail {

Taskgroup* taskgroup_begin(ThreadState& ts) {
  void* mem = arena_alloc(ts, sizeof(Taskgroup));
  const bool from_arena = mem != nullptr;
  if (mem == nullptr) mem = ::operator new(sizeof(Taskgroup));  // arena exhausted
  auto* g = new (mem) Taskgroup;
  g->from_arena = from_arena;
  g->prev = ts.task->tg_current;
  g->reductions = g->prev != nullptr ? g->prev->reductions : nullptr;
  ts.task->tg_current = g;
  return g;
}

void taskgroup_finish(ThreadState& ts) {
  Task* t = ts.task;
  Taskgroup* g = t->tg_current;
  if (g == nullptr) return;
  // acquire: pairs with complete()'s release decrements (the tasks' writes).
  if (g->count.load(std::memory_order_acquire) != 0) {
    wait_until(ts, t, [g] { return g->count.load(std::memory_order_acquire) == 0; });
  }
  t->tg_current = g->prev;
  const bool from_arena = g->from_arena;
  g->~Taskgroup();
  if (from_arena) {
    arena_free(ts, g);
  } else {
    ::operator delete(g);
  }
}

}  // namespace task_detail

bool taskgroup_cancel(ThreadState& ts) noexcept {
  Taskgroup* g = ts.task->tg_current;
  if (g == nullptr) return false;
  // The implicit group of a work share with task reductions is not a `taskgroup` region of the
  // program: `cancel taskgroup` binds to the innermost real one around it (as libgomp does).
  if (g->workshare && g->prev != nullptr) g = g->prev;
  // release: what the cancelling task wrote is visible to those that see the flag.
  g->cancelled.store(true, std::memory_order_release);
  return true;
}

bool taskgroup_cancelled(ThreadState& ts) noexcept {
  return task_detail::group_cancelled(ts.task->tg_current);
}

void workshare_taskgroup_start(ThreadState& ts) {
  task_detail::taskgroup_begin(ts)->workshare = true;
}

RTPAR_OMP_EXPORT void GOMP_taskgroup_start() { task_detail::taskgroup_begin(self()); }

RTPAR_OMP_EXPORT void GOMP_taskgroup_end() { task_detail::taskgroup_finish(self()); }

}  // namespace rtpar::omp
