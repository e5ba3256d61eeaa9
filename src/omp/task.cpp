// task.cpp — explicit tasks (OpenMP 5.0 §2.10): creation (GOMP_task's deferred and undeferred
// paths, task_spawn), running (execute), completion, detach events and the core's per-region
// hooks. The rest of the task scheduler is split by concept: task_queue.cpp (deques, the shared
// list, the tied-task constraint), task_wait.cpp (taskwait and every other task wait),
// task_included.cpp (the GOMP_task entry and the record-free included-task path), with
// task_deps.cpp, task_group.cpp, task_reduction.cpp and task_arena.cpp.
//
// Accounting (task.hpp): a member's `created`/`completed` counters are single-writer, updated with
// a relaxed load and a release store; readers (team_idle) acquire. created++ precedes the push,
// and completion of a task happens after its creation, so reading all `completed` first and all
// `created` second bounds the outstanding count from below at a point in time: equal sums mean
// that at that instant no task of the team was outstanding.
#include <cstring>
#include <new>

#include "omp/check_update.hpp"
#include "omp/runtime.hpp"

namespace rtpar::omp {

using namespace task_detail;

namespace {

// bump adds one to a single-writer counter (relaxed load, release store: see the file comment).
inline void bump(std::atomic<std::uint64_t>& c) noexcept {
  c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

// free_task releases a deferred task's descriptor (its refs reached 0).
void free_task(ThreadState& ts, Task* t) noexcept {
  if (t->dep_table != nullptr) deps_free_table(t);
  if (t->deps_mem == Task::kDepsArena) arena_free(ts, t->deps);
  if (t->deps_mem == Task::kDepsHeap) ::operator delete(t->deps);
  const bool heap = t->heap;
  t->~Task();
  if (heap) {
    ::operator delete(t);
  } else {
    arena_free(ts, t);
  }
}

// set_event stores a detachable task's event handle where GCC expects it.
void set_event(Task* t, void* detach, void* data) noexcept {
  t->detachable = true;
  // relaxed: published with the task (push release) or read by this thread.
  t->detach_pending.store(2, std::memory_order_relaxed);
  *static_cast<void**>(detach) = t;
  if (data != nullptr) *static_cast<void**>(data) = t;
}

// run_undeferred runs a task at once on the encountering thread (if(0), final parent, team of
// one, arena exhausted), after its dependences are satisfied.
void run_undeferred(ThreadState& ts, void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                    long arg_size, long arg_align, unsigned flags, void** depend, int priority,
                    void* detach, void (*set_bounds)(void*, const void*), const void* bounds) {
  Task* parent = ts.task;
  if ((flags & kFlagDepend) != 0 && depend != nullptr) deps_wait(ts, depend);
  Task t;
  t.icv = parent->icv;
  t.team = ts.team;
  t.parent = parent;
  set_lineage_child(t, parent);
  t.final_task = parent->final_task || (flags & kFlagFinal) != 0;
  t.implicit = false;
  t.priority = priority;
  t.tg_member = t.tg_current = parent->tg_current;
  if ((flags & kFlagDetach) != 0) set_event(&t, detach, data);
  ts.task = &t;
  if (cpyfn != nullptr) {
    if (arg_align < 1) arg_align = 1;
    char* buf = static_cast<char*>(__builtin_alloca(arg_size + arg_align - 1));
    char* arg = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(buf) + arg_align - 1) &
                                        ~static_cast<std::uintptr_t>(arg_align - 1));
    cpyfn(arg, data);
    if (set_bounds != nullptr) set_bounds(arg, bounds);
    fn(arg);
  } else {
    if (set_bounds != nullptr) set_bounds(data, bounds);
    fn(data);
  }
  // acq_rel: pairs with omp_fulfill_event's decrement.
  if (t.detachable && t.detach_pending.fetch_sub(1, std::memory_order_acq_rel) != 1) {
    // acquire: the fulfilling thread's writes. The suspended tied task is the encountering one.
    wait_until(ts, parent, [&t] { return t.detach_pending.load(std::memory_order_acquire) == 0; });
  }
  // The record lives on this frame: its deferred children must finish before it goes away.
  // acquire: the children's completions (acq_rel decrements) carry their writes.
  if (t.refs.load(std::memory_order_acquire) != 1) {
    wait_until(ts, &t, [&t] { return t.refs.load(std::memory_order_acquire) == 1; });
  }
  if (t.dep_table != nullptr) deps_free_table(&t);
  ts.task = parent;
}

}  // namespace

// ---- internal interface (task.hpp) ----

namespace task_detail {

// team_idle says whether no task of the team is outstanding (file comment, accounting).
bool team_idle(TeamTasks& tt) noexcept {
  // acquire, all: see the file comment.
  std::uint64_t done = tt.ext_completed.load(std::memory_order_acquire);
  for (int i = 0; i < tt.nthreads; ++i) {
    done += tt.members[i].completed.load(std::memory_order_acquire);
  }
  std::uint64_t made = 0;
  for (int i = 0; i < tt.nthreads; ++i) {
    made += tt.members[i].created.load(std::memory_order_acquire);
  }
  return done == made;
}

// execute runs deferred task t on ts and completes it (unless its detach event is pending).
void execute(ThreadState& ts, Task* t) {
  Task* prev = ts.task;
  ts.task = t;
  if (!(cancellation_on() && task_dropped(*t))) t->fn(t->arg);
  ts.task = prev;
  // acq_rel: the body's writes reach the fulfilling thread, whose writes reach us (either side
  // may be the one that completes the task).
  if (t->detachable && t->detach_pending.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  complete(ts, t);
}

bool cancellation_on() noexcept {
  static const bool on = globals().cancellation;
  return on;
}

bool group_cancelled(const Taskgroup* g) noexcept {
  for (; g != nullptr; g = g->prev) {
    // acquire: pairs with taskgroup_cancel's release store.
    if (g->cancelled.load(std::memory_order_acquire)) return true;
  }
  return false;
}

bool task_dropped(const Task& t) noexcept {
  // A task whose copy constructors ran is not dropped: its body destroys the copies (libgomp
  // discards only tasks whose copies were not constructed); its cancellation points still apply.
  if (t.copy_ctors_done) return false;
  // acquire: pairs with GOMP_cancel's release store.
  return t.team->cancelled.load(std::memory_order_acquire) || group_cancelled(t.tg_member);
}

void complete(ThreadState& ts, Task* t) noexcept {
  TeamState* team = t->team;
  if (t->ndeps != 0) deps_release(ts, t);  // only tasks with dependences have successors
  bool may_end_wait = false;
  // release: the task's writes reach the taskgroup_end waiter (acquire). seq_cst: the last
  // member's decrement is ordered before poke_waiters' load (task_wait.cpp, "Sleeping in a
  // task wait"); the same locked instruction on x86.
  if (Taskgroup* g = t->tg_member) {
    may_end_wait = g->count.fetch_sub(1, std::memory_order_seq_cst) == 1;
  }
  Task* p = t->parent;
  // acq_rel: release publishes our writes to the parent's taskwait (acquire); acquire lets
  // whoever frees the parent see its last writes. seq_cst: as for the taskgroup count; 2 → 1 is
  // the parent's last child, which ends its taskwait.
  const std::int64_t parent_refs = p->refs.fetch_sub(1, std::memory_order_seq_cst);
  if (parent_refs == 1) free_task(ts, p);
  if (parent_refs == 2 || may_end_wait) poke_waiters(*team);
  // Count the completion last: once every task is counted the region may end and its implicit
  // tasks be reused.
  if (ts.team == team) {
    bump(team->tasks.members[ts.tid].completed);
  } else {
    // release: as bump; several non-members may complete tasks at once.
    team->tasks.ext_completed.fetch_add(1, std::memory_order_release);
    barrier_poke(*team);
  }
  // acquire: with refs == 1 no child is left (and none can appear), so the descriptor is ours.
  if (t->refs.load(std::memory_order_acquire) == 1 ||
      t->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    free_task(ts, t);
  }
}

Task* task_new(ThreadState& ts, void* mem, bool heap, bool final_task, int priority,
               void (*fn)(void*)) noexcept {
  Task* parent = ts.task;
  Task* t = new (mem) Task;
  t->heap = heap;
  t->icv = parent->icv;
  t->team = ts.team;
  t->parent = parent;
  set_lineage_child(*t, parent);
  t->final_task = final_task;
  t->implicit = false;
  t->deferred = true;
  t->priority = priority;
  t->creator = ts.tid;
  t->fn = fn;
  t->tg_member = t->tg_current = parent->tg_current;
  return t;
}

void task_count(ThreadState& ts, Task* t) noexcept {
  // relaxed: the parent runs on this thread; the children's acq_rel decrements follow in the
  // modification order (see complete).
  t->parent->refs.fetch_add(1, std::memory_order_relaxed);
  // relaxed: this task (or the group's owner) is counted in the group until after this
  // increment, so the count cannot reach 0 in between.
  if (t->tg_member != nullptr) t->tg_member->count.fetch_add(1, std::memory_order_relaxed);
  bump(t->team->tasks.members[ts.tid].created);
}

void task_launch(ThreadState& ts, Task* t, bool run_now) {
  task_count(ts, t);
  if (t->ndeps != 0 && deps_register(t->parent, t, true) > 0) return;  // released by a predecessor
  if (run_now || t->team->nthreads == 1 || !push_own(ts, t)) {
    execute(ts, t);  // if(0), team of one, or a full deque (throttling): run it now
  }
}

void task_spawn(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                long arg_align, bool if_clause, unsigned flags, void** depend, int priority_arg,
                void* detach, void (*set_bounds)(void*, const void*), const void* bounds) {
  ThreadState& ts = self();
  Task* parent = ts.task;
  TeamState* team = ts.team;
  if (__builtin_expect(cancellation_on(), 0)) {
    // acquire: pairs with GOMP_cancel's release store.
    if (team->cancelled.load(std::memory_order_acquire) || group_cancelled(parent->tg_current)) {
      return;
    }
  }
  int priority = 0;
  if ((flags & kFlagPriority) != 0) {
    priority = priority_arg < 0 ? 0 : priority_arg;
    if (priority > globals().max_task_priority) priority = globals().max_task_priority;
  }
  const bool has_deps = (flags & kFlagDepend) != 0 && depend != nullptr;
  const bool detachable = (flags & kFlagDetach) != 0;
  bool undeferred = !if_clause || parent->final_task;
  // A team of one runs its tasks at once (those with dependences or a detach event go through
  // the deferred path below, which runs them at once too when nothing holds them back).
  if (!undeferred && !has_deps && !detachable) undeferred = team->nthreads == 1;
  // run_now: an if(0) task that is not final may create deferred children, and nothing makes it
  // wait for them (no implicit taskwait): they may outlive it. Its record then takes the
  // deferred path's arena memory and runs at once, so that its children, not its frame, keep the
  // record alive. A final task's and a team of one's children all run at once, so those keep the
  // frame record (run_undeferred); so does a detachable one (its encountering task waits for the
  // event there, as libgomp does).
  const bool run_now = undeferred && !parent->final_task && (flags & kFlagFinal) == 0 &&
                       !detachable && team->nthreads > 1;
  if (run_now && has_deps) {
    deps_wait(ts, depend);  // undeferred: its predecessors first, then its body, on this thread
    flags &= ~kFlagDepend;
  }
  if (!undeferred || run_now) {
    if (arg_align < 1) arg_align = 1;
    const std::size_t ndeps = has_deps && !run_now ? deps_count(depend) : 0;
    const std::size_t bytes = sizeof(Task) + ndeps * sizeof(DepRec) +
                              static_cast<std::size_t>(arg_size) +
                              static_cast<std::size_t>(arg_align);
    void* mem = arena_alloc(ts, bytes);
    bool heap = false;
    if (mem == nullptr && (ndeps != 0 || detachable)) {
      // Arena exhausted: running these at once could wait forever (on a predecessor or on an
      // event the encountering task fulfils later), so they take heap memory instead.
      mem = ::operator new(bytes, std::nothrow);
      heap = mem != nullptr;
    }
    if (mem != nullptr) {
      Task* t = task_new(ts, mem, heap, (flags & kFlagFinal) != 0, priority, fn);
      char* p = reinterpret_cast<char*>(t + 1);
      if (ndeps != 0) {
        t->deps = reinterpret_cast<DepRec*>(p);
        t->ndeps = static_cast<int>(ndeps);
        deps_fill(depend, t->deps);
        p += ndeps * sizeof(DepRec);
      }
      char* arg = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(p) + arg_align - 1) &
                                          ~static_cast<std::uintptr_t>(arg_align - 1));
      t->arg = arg;
      if (detachable) set_event(t, detach, data);
      if (cpyfn != nullptr) {
        ts.task = t;  // copy constructors run in the new task's data environment
        cpyfn(arg, data);
        ts.task = parent;
        t->copy_ctors_done = true;
      } else if (arg_size > 0) {
        std::memcpy(arg, data, static_cast<std::size_t>(arg_size));
      }
      if (set_bounds != nullptr) set_bounds(arg, bounds);
      task_launch(ts, t, run_now);
      return;
    }
  }
  run_undeferred(ts, fn, data, cpyfn, arg_size, arg_align, flags, depend, priority, detach,
                 set_bounds, bounds);
}

}  // namespace task_detail

// ---- core hooks ----

void task_init_implicit(Task& t, TeamState* team, const Icvs& icv, Task* parent) noexcept {
  // check_update, every field: a region re-run with the same settings leaves each member's
  // implicit-task lines shared instead of taking them from the member (check_update.hpp).
  check_update(t.icv, icv);
  check_update(t.team, team);
  check_update(t.parent, parent);
  // relaxed builtins, as set_lineage_root (Task::depth_).
  if (task_depth(&t) != 0 || task_root(&t) != &t || task_jump(&t) != &t) set_lineage_root(t);
  check_update(t.final_task, false);
  check_update(t.implicit, true);
  check_update(t.detachable, false);
  check_update(t.deferred, false);
  // relaxed (check_update): no task of the region exists yet; the fork publishes these.
  check_update(t.refs, std::int64_t{1});
  check_update(t.detach_pending, 0);
  check_update(t.tg_member, static_cast<Taskgroup*>(nullptr));
  check_update(t.tg_current, pending_region_group());
  if (t.dep_table != nullptr) deps_free_table(&t);
  check_update(t.succ, static_cast<DepEdge*>(nullptr));
}

void team_tasks_init(TeamTasks& tasks, int nthreads) {
  tasks.nthreads = nthreads;
  tasks.members = std::make_unique<MemberTasks[]>(static_cast<std::size_t>(nthreads));
}

void team_tasks_begin_region(TeamTasks& /*tasks*/) noexcept { pending_region_group() = nullptr; }

// ---- GOMP entry points ----

// GOMP_taskyield is a no-op, as in libgomp and libomp (tied tasks are not suspended).
RTPAR_OMP_EXPORT void GOMP_taskyield() {}

RTPAR_OMP_EXPORT int omp_in_final() { return self().task->final_task ? 1 : 0; }

RTPAR_OMP_EXPORT int omp_get_max_task_priority() { return globals().max_task_priority; }

RTPAR_OMP_EXPORT void omp_fulfill_event(void* event) {
  Task* t = static_cast<Task*>(event);
  if (t == nullptr) return;
  if (!t->deferred) {
    // acq_rel: our writes reach the undeferred task's waiter; this is our last access.
    t->detach_pending.fetch_sub(1, std::memory_order_acq_rel);
    return;
  }
  // acq_rel: see execute.
  if (t->detach_pending.fetch_sub(1, std::memory_order_acq_rel) == 1) complete(self(), t);
}

}  // namespace rtpar::omp
