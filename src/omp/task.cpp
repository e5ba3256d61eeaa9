// task.cpp — explicit tasks (OpenMP 5.0 §2.10): creation (GOMP_task), the per-member
// work-stealing deques, running, completion, taskwait, and the core's scheduling hooks.
//
// Deque: each member's TaskDeque is rtpar's Chase–Lev deque (rtpar/detail/chase_lev.hpp, the one
// the work-stealing runtime uses; orderings and invariants there): the owner pushes (try_push,
// which checks the capacity) and pops at the bottom, thieves steal at the top.
//
// Sleeping in a task wait (wait_until_fn): a member that found nothing to run sleeps on the team's
// barrier word like a barrier waiter (barrier.cpp: SLEEPER bit, seq_cst fence, last look,
// futex), so the same pokes wake it when a task is queued. The wait ends when a child, a
// taskgroup member or the task itself completes on another member; that completion pokes too when
// a member sleeps in a task wait (TeamTasks::waiters). No lost wake-up: the waiter increments
// `waiters` (seq_cst) before its fence and last look at its condition; the completer's
// decrement is a seq_cst RMW followed by a seq_cst load of `waiters`. In the single total order
// either the load sees the increment (and pokes; barrier_poke's protocol then reaches the
// sleeper), or it precedes it, and then the waiter's look after its seq_cst fence sees the
// decrement. Before, the waiter polled with growing nanosleeps: with more members than CPUs a
// chain of taskwaits, each noticing its child's end up to 256 µs (plus timer slack) late, made a
// deep recursive search crawl (4.1 M tasks, depth ~1,500: over 60 s at 4 threads on 2 CPUs).
// Waits on dependences and detach events are not poked; their timeout keeps them going.
//
// Accounting (task.hpp): a member's `created`/`completed` counters are single-writer, updated with
// a relaxed load and a release store; readers (team_idle) acquire. created++ precedes the push,
// and completion of a task happens after its creation, so reading all `completed` first and all
// `created` second bounds the outstanding count from below at a point in time: equal sums mean
// that at that instant no task of the team was outstanding.
#include <cstring>
#include <new>

#include "omp/runtime.hpp"
#include "platform/futex.hpp"
#include "rtpar/cpu_relax.hpp"

namespace rtpar::omp {

using namespace task_detail;

namespace {

// kFlag* are GOMP_task's flag bits (gomp-constants.h).
constexpr unsigned kFlagFinal = 2;
constexpr unsigned kFlagDepend = 8;
constexpr unsigned kFlagPriority = 16;
constexpr unsigned kFlagDetach = 8192;

// shared_push inserts t into the team's shared list, highest priority first, FIFO within one.
void shared_push(TeamTasks& tt, Task* t) {
  std::lock_guard<std::mutex> lock(tt.shared_lock);
  Task** p = &tt.shared;
  while (*p != nullptr && (*p)->priority >= t->priority) p = &(*p)->next;
  t->next = *p;
  *p = t;
  // relaxed: hints read without the lock; the lock orders the list itself.
  tt.shared_count.fetch_add(1, std::memory_order_relaxed);
  tt.shared_version.fetch_add(1, std::memory_order_relaxed);
}

// shared_pop takes the first task of the team's shared list that descends from `tied` (any task
// when tied is nullptr), or nullptr. `version` receives the list's version it looked at.
Task* shared_pop(TeamTasks& tt, const Task* tied, std::uint64_t& version) {
  std::lock_guard<std::mutex> lock(tt.shared_lock);
  // relaxed: written under the lock we hold.
  version = tt.shared_version.load(std::memory_order_relaxed);
  Task** p = &tt.shared;
  while (*p != nullptr && tied != nullptr && !descends(*p, tied)) p = &(*p)->next;
  Task* t = *p;
  if (t != nullptr) {
    *p = t->next;
    // relaxed: as in shared_push.
    tt.shared_count.fetch_sub(1, std::memory_order_relaxed);
  }
  return t;
}

// bump adds one to a single-writer counter (relaxed load, release store: see the file comment).
inline void bump(std::atomic<std::uint64_t>& c) noexcept {
  c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

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

// free_task releases a deferred task's descriptor (its refs reached 0).
void free_task(ThreadState& ts, Task* t) noexcept {
  if (t->dep_table != nullptr) deps_free_table(t);
  const bool heap = t->heap;
  t->~Task();
  if (heap) {
    ::operator delete(t);
  } else {
    arena_free(ts, t);
  }
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

// pick finds a task for ts: the shared list, its own deque, then the other members' deques.
//
// Tied-task scheduling constraint (OpenMP 5.0 §2.10.6, TSC 2): while ts.tied_wait is suspended
// in a taskwait, a taskgroup end or an undeferred task's wait, only its descendants may start —
// otherwise a stolen unrelated task could, for example, block on a lock or a critical section the
// suspended task holds, on the same thread, forever. Orders that make the test cheap:
//  - own deque: everything pushed since tied_wait started descends from it (tied: it and all it
//    ran on this thread since are its descendants), and sits above everything pushed before, so
//    when the bottom task does not descend, none does: it goes back where it was (we are the
//    owner; the slot is free) and the deque is left alone;
//  - a stolen task that does not descend is already ours: it moves to the shared list, where the
//    unconstrained members (at a barrier) or the members it descends from find it; each task
//    moves at most once.
// A barrier (tied_wait nullptr, or a task of an enclosing team: a region nested in a task has
// its own team) is unconstrained: the implicit task there is not in the constraint's set.
Task* pick(ThreadState& ts) noexcept {
  TeamState& team = *ts.team;
  TeamTasks& tt = team.tasks;
  const Task* tied = ts.tied_wait;
  if (tied != nullptr && tied->team != &team) tied = nullptr;
  Task* t = nullptr;
  MemberTasks& me = tt.members[ts.tid];
  // relaxed, both: hints; the list is read under its lock. A suspended member skips a list that
  // has not changed since it found nothing there for the same task.
  if (tt.shared_count.load(std::memory_order_relaxed) > 0 &&
      (tied == nullptr || me.tied_miss != tied ||
       tt.shared_version.load(std::memory_order_relaxed) != me.shared_miss_version)) {
    std::uint64_t version = 0;
    t = shared_pop(tt, tied, version);
    if (t == nullptr && tied != nullptr) {
      me.tied_miss = tied;
      me.shared_miss_version = version;
    }
  }
  if (t == nullptr) {
    TaskDeque& own = me.deque;
    t = own.pop();
    if (t != nullptr && tied != nullptr && !descends(t, tied)) {
      bool was_empty = false;
      (void)own.try_push(t, was_empty);  // cannot fail: the slot was just freed
      t = nullptr;
    }
  }
  if (t == nullptr && tt.nthreads > 1) {
    const int n = tt.nthreads;
    for (int k = 1; k < n && t == nullptr; ++k) {
      TaskDeque& victim = tt.members[(ts.tid + k) % n].deque;
      // A suspended member takes only what may descend from its task (the top of a deque is
      // its oldest task, rarely one): taking others would only move them to the shared list,
      // where a deep recursion piles them up for the few members allowed to run them.
      t = tied == nullptr ? victim.steal()
                          : victim.steal_if([tied](const Task* c) { return may_descend(c, tied); });
      if (t != nullptr && tied != nullptr && !descends(t, tied)) {
        shared_push(tt, t);
        // a member that looked at the victim's deque after our steal and at the shared list
        // before our push may have gone to sleep: wake it (the barrier_poke protocol).
        barrier_poke(team);
        t = nullptr;
      }
    }
  }
  return t;
}

// push_own queues a new ready task of ts's team on ts's deque (or the shared list for a
// priority task). False when the deque is full.
bool push_own(ThreadState& ts, Task* t) noexcept {
  TeamState& team = *ts.team;
  bool was_empty = true;
  if (t->priority > 0) {
    shared_push(team.tasks, t);
  } else if (!team.tasks.members[ts.tid].deque.try_push(t, was_empty)) {
    return false;
  }
  // Wake barrier sleepers only when the deque was empty (see schedule).
  if (was_empty) barrier_poke(team);
  return true;
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
  set_lineage(t, task_depth(parent) + 1, task_root(parent));
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

// sleep_in_wait sleeps on the team's barrier word until poked or `timeout_ns` passed, unless
// done(ctx) holds or a task ran after the SLEEPER bit was set (file comment, "Sleeping in a task
// wait").
void sleep_in_wait(ThreadState& ts, bool (*done)(void*), void* ctx, long timeout_ns) {
  TeamState& team = *ts.team;
  TeamTasks& tt = team.tasks;
  // seq_cst: see the file comment (ordered before the fence and the last look below).
  tt.waiters.fetch_add(1, std::memory_order_seq_cst);
  struct Leave {
    TeamTasks& tt;
    // relaxed: a completer seeing a stale count only pokes once too often.
    ~Leave() { tt.waiters.fetch_sub(1, std::memory_order_relaxed); }
  } leave{tt};
  // acquire: as barrier.cpp's wait_generation reads the word.
  std::uint32_t v = team.barrier_gen.load(std::memory_order_acquire);
  // A failed arm means the word just changed: look again instead of sleeping.
  if (!arm_sleeper(team, v)) return;
  // seq_cst (barrier.cpp (2) and the file comment): the bit and the waiter count are visible
  // before the last look.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (done(ctx) || task_run_one(ts)) return;
  detail::futex_wait_until(team.barrier_gen, v, monotonic_now() + timeout_ns);
}

}  // namespace

// ---- internal interface (task.hpp) ----

namespace task_detail {

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

bool may_descend(const Task* c, const Task* w) noexcept {
  const Task* root = task_root(c);
  if (w->implicit) return root == w && c != w;
  return root == task_root(w) && task_depth(c) > task_depth(w);
}

bool descends(const Task* c, const Task* w) noexcept {
  // Within the team's task tree only (the chain ends at c's implicit task, root).
  if (!may_descend(c, w)) return false;
  if (w->implicit) return true;
  const Task* p = c;
  for (int k = task_depth(c) - task_depth(w); k > 0; --k) p = p->parent;
  return p == w;
}

// poke_waiters wakes the members asleep in a task wait of `team` after a completion that may end
// one (file comment, "Sleeping in a task wait"); the caller's decrement was a seq_cst RMW.
void poke_waiters(TeamState& team) noexcept {
  // seq_cst: see the file comment.
  if (team.tasks.waiters.load(std::memory_order_seq_cst) > 0) barrier_poke(team);
}

void wait_until_fn(ThreadState& ts, Task* tied, bool (*done)(void*), void* ctx) {
  // Nested waits restore the outer constraint (a task run here may wait in turn).
  struct Restore {
    ThreadState& ts;
    Task* saved;
    ~Restore() { ts.tied_wait = saved; }
  } restore{ts, ts.tied_wait};
  ts.tied_wait = tied;
  const detail::WaitSpec& w = ts.team->wait;
  const std::int64_t budget = w.kind == WaitKind::block ? 0 : w.spin_ns;
  std::int64_t spin_start = -1;
  long sleep_ns = 0;
  while (!done(ctx)) {
    if (task_run_one(ts)) {
      spin_start = -1;
      sleep_ns = 0;
      continue;
    }
    if (sleep_ns == 0) {
      // Spin phase: cpu_relax between looks, for the team's spin budget (unbounded only under
      // the spin policy when not real-time).
      cpu_relax();
      if (spin_start < 0) {
        spin_start = detail::spin_clock_ns();
        continue;
      }
      const bool forever = w.kind == WaitKind::spin && !ts.team->fifo;
      if (forever || detail::spin_clock_ns() - spin_start < budget) continue;
      sleep_ns = 1000;
    }
    sleep_in_wait(ts, done, ctx, sleep_ns);
    if (sleep_ns < 256'000) sleep_ns *= 2;
  }
}

void schedule(ThreadState& ts, Task* t) noexcept {
  TeamState& team = *t->team;
  TeamTasks& tt = team.tasks;
  bool was_empty = true;
  if (t->priority > 0 || ts.team != &team || !tt.members[ts.tid].deque.try_push(t, was_empty)) {
    shared_push(tt, t);
    was_empty = true;
  }
  // Waking sleepers only when the deque was empty: a sleeper that looked before our push saw the
  // empty deque and, by barrier_poke's fence protocol, is woken; later pushes onto a non-empty
  // deque only add work that the awake thieves or the owner itself will find.
  if (was_empty && tt.nthreads > 1) barrier_poke(team);
}

void complete(ThreadState& ts, Task* t) noexcept {
  TeamState* team = t->team;
  if (t->ndeps != 0) deps_release(ts, t);  // only tasks with dependences have successors
  bool may_end_wait = false;
  // release: the task's writes reach the taskgroup_end waiter (acquire). seq_cst: the last
  // member's decrement is ordered before poke_waiters' load (file comment, "Sleeping in a task
  // wait"); the same locked instruction on x86.
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
      Task* t = new (mem) Task;
      t->heap = heap;
      t->icv = parent->icv;
      t->team = team;
      t->parent = parent;
      set_lineage(*t, task_depth(parent) + 1, task_root(parent));
      t->final_task = (flags & kFlagFinal) != 0;
      t->implicit = false;
      t->deferred = true;
      t->priority = priority;
      t->fn = fn;
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
      t->tg_member = t->tg_current = parent->tg_current;
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
      // relaxed: the parent runs on this thread; the children's acq_rel decrements follow in the
      // modification order (see complete).
      parent->refs.fetch_add(1, std::memory_order_relaxed);
      // relaxed: this task (or the group's owner) is counted in the group until after this
      // increment, so the count cannot reach 0 in between.
      if (t->tg_member != nullptr) t->tg_member->count.fetch_add(1, std::memory_order_relaxed);
      bump(team->tasks.members[ts.tid].created);
      if (ndeps != 0 && deps_register(parent, t, true) > 0) return;  // released by a predecessor
      if (run_now || team->nthreads == 1 || !push_own(ts, t)) {
        execute(ts, t);  // if(0), team of one, or a full deque (throttling): run it now
      }
      return;
    }
  }
  run_undeferred(ts, fn, data, cpyfn, arg_size, arg_align, flags, depend, priority, detach,
                 set_bounds, bounds);
}

}  // namespace task_detail

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

// ---- core hooks ----

void task_init_implicit(Task& t, TeamState* team, const Icvs& icv, Task* parent) noexcept {
  t.icv = icv;
  t.team = team;
  t.parent = parent;
  set_lineage(t, 0, &t);
  t.final_task = false;
  t.implicit = true;
  t.detachable = false;
  t.deferred = false;
  // relaxed: no task of the region exists yet; the fork publishes these.
  t.refs.store(1, std::memory_order_relaxed);
  t.detach_pending.store(0, std::memory_order_relaxed);
  t.tg_member = nullptr;
  t.tg_current = pending_region_group();
  if (t.dep_table != nullptr) deps_free_table(&t);
  t.succ = nullptr;
}

void team_tasks_init(TeamTasks& tasks, int nthreads) {
  tasks.nthreads = nthreads;
  tasks.members = std::make_unique<MemberTasks[]>(static_cast<std::size_t>(nthreads));
}

void team_tasks_begin_region(TeamTasks& /*tasks*/) noexcept { pending_region_group() = nullptr; }

bool task_run_one(ThreadState& ts) {
  Task* t = pick(ts);
  if (t == nullptr) return false;
  execute(ts, t);
  return true;
}

void tasks_drain(ThreadState& ts) {
  TeamTasks& tt = ts.team->tasks;
  if (team_idle(tt)) return;
  wait_until(ts, nullptr, [&tt] { return team_idle(tt); });
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

RTPAR_OMP_EXPORT void GOMP_taskwait() {
  ThreadState& ts = self();
  Task* t = ts.task;
  // acquire: the children's acq_rel decrements carry their writes.
  if (t->refs.load(std::memory_order_acquire) == 1) return;
  wait_until(ts, t, [t] { return t->refs.load(std::memory_order_acquire) == 1; });
}

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
