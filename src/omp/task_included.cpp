// task_included.cpp — GOMP_task's entry and the included-task fast path (OpenMP 5.0 §2.10.1:
// every task a `final` task creates is included, and so is every task those create): such a
// task runs at once as its encountering task, at the cost of a call (run_included), and the ICV
// frames (runtime.hpp's IncludedFrame, writable_icvs) keep an `omp_set_*` call in it from
// changing the encountering task's ICVs. Every other task goes to task_spawn (task.cpp).
// GOMP_task lives here so that the compiler inlines run_included into it: the fast path is the
// whole point of the file.
#include <cstring>

#include "omp/runtime.hpp"

namespace rtpar::omp {

using namespace task_detail;

namespace {

// run_included runs an included task that needs no record of its own: a descendant of a final
// task (the encountering task ts.task is final) with no dependences, no detach event and no copy
// function (OpenMP 5.0 §2.10.1: such a task is included, and every task it creates is included
// too). It runs as its encountering task (runtime.hpp's IncludedFrame says why that is exact), so
// it costs a call: no record, no deque, no atomic operation. The spec needs none: an included
// task completes before its encountering task resumes, on the same thread.
void run_included(ThreadState& ts, void (*fn)(void*), void* data) {
  IncludedFrame frame;
  frame.prev = ts.included;
  frame.owner = ts.task;
  frame.saved = false;
  ts.included = &frame;
  fn(data);
  ts.included = frame.prev;
  if (__builtin_expect(frame.saved, 0)) std::memcpy(&frame.owner->icv, frame.icv, sizeof(Icvs));
}

}  // namespace

Icvs& writable_icvs(ThreadState& ts) noexcept {
  IncludedFrame* f = ts.included;
  // Only the innermost frame can be the running task's: a task with a record of its own started
  // inside an included one (ts.task != owner) changes its own ICVs.
  if (f != nullptr && f->owner == ts.task && !f->saved) {
    std::memcpy(f->icv, &ts.task->icv, sizeof(Icvs));
    f->saved = true;
  }
  return ts.task->icv;
}

// ---- GOMP entry points ----

RTPAR_OMP_EXPORT void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                                long arg_size, long arg_align, bool if_clause, unsigned flags,
                                void** depend, int priority, void* detach) {
  ThreadState& ts = self();
  // A final task's descendants: run_included, unless they need what only a record gives
  // (dependences, a detach event, copy constructors run in the new task's environment) or
  // cancellation is on (task_spawn checks whether the task is to be dropped).
  if (ts.task->final_task && (flags & (kFlagDepend | kFlagDetach)) == 0 && cpyfn == nullptr &&
      !cancellation_on()) {
    run_included(ts, fn, data);
    return;
  }
  task_spawn(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach,
             nullptr, nullptr);
}

}  // namespace rtpar::omp
