// task_queue.cpp — where ready tasks wait and how a member finds one (OpenMP 5.0 §2.10.6, task
// scheduling): each member's work-stealing deque, the team's shared list, the members' lists of
// returned tasks, and the tied-task scheduling constraint applied when a suspended task looks for
// work (pick).
//
// Deque: each member's TaskDeque is rtpar's Chase–Lev deque (rtpar/detail/chase_lev.hpp, the one
// the work-stealing runtime uses; orderings and invariants there): the owner pushes (try_push,
// which checks the capacity) and pops at the bottom, thieves steal at the top.
#include <mutex>

#include "omp/runtime.hpp"

namespace rtpar::omp {

using namespace task_detail;

namespace {

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

// returned_push puts t, stolen by a member that may not start it, on the returned list of the
// member that created it (pick, "a stolen task that does not descend"), deepest first.
void returned_push(TeamTasks& tt, Task* t) {
  MemberTasks& m = tt.members[t->creator];
  {
    std::lock_guard<std::mutex> lock(m.returned_lock);
    const int d = task_depth(t);
    Task** p = &m.returned;
    while (*p != nullptr && task_depth(*p) >= d) p = &(*p)->next;
    t->next = *p;
    *p = t;
    // relaxed, both: hints read without the lock; the lock orders the list itself.
    m.returned_count.fetch_add(1, std::memory_order_relaxed);
  }
  tt.returned_version.fetch_add(1, std::memory_order_relaxed);
}

// returned_pop takes the first task of m's returned list that descends from `tied` (any task when
// tied is nullptr), or nullptr. The list is sorted deepest first, so the search stops at the
// first task no deeper than `tied`: none after it can descend from it.
Task* returned_pop(MemberTasks& m, const Task* tied) {
  std::lock_guard<std::mutex> lock(m.returned_lock);
  Task** p = &m.returned;
  if (tied != nullptr) {
    const int d = task_depth(tied);
    while (*p != nullptr && task_depth(*p) > d && !descends(*p, tied)) p = &(*p)->next;
    if (*p != nullptr && task_depth(*p) <= d) return nullptr;
  }
  Task* t = *p;
  if (t != nullptr) {
    *p = t->next;
    // relaxed: as in returned_push.
    m.returned_count.fetch_sub(1, std::memory_order_relaxed);
  }
  return t;
}

// pick finds a task for ts: the shared list, its own returned list and deque, then the other
// members' deques (and, when unconstrained or out of work, their returned lists).
//
// Tied-task scheduling constraint (OpenMP 5.0 §2.10.6, TSC 2): while ts.tied_wait is suspended
// in a taskwait, a taskgroup end or an undeferred task's wait, only its descendants may start —
// otherwise a stolen unrelated task could, for example, block on a lock or a critical section the
// suspended task holds, on the same thread, forever. Orders that make the test cheap:
//  - own deque: everything pushed since tied_wait started descends from it (tied: it and all it
//    ran on this thread since are its descendants), and sits above everything pushed before, so
//    when the bottom task does not descend, none does: it goes back where it was (we are the
//    owner; the slot is free) and the deque is left alone;
//  - a stolen task that does not descend is already ours: it moves to the returned list of the
//    member that created it, which ran its parent (tied) and, suspended in that parent's
//    taskwait, may start it: the list is that member's first stop, sorted deepest first, so the
//    children of its innermost wait come first. Unconstrained members (at a barrier) take any
//    returned task; a suspended member out of other work looks for its descendants in every
//    returned list (so a task an ancestor's wait needs is never left only to a busy creator).
//    Each task moves at most once. These once went to the one shared list instead: with 8
//    members on 2 CPUs and a 4,783-level search, thousands piled up there and every suspended
//    member scanned them all, walking each one's ancestry (tree_search.c: 6 to over 15 s, 90%
//    of it in that scan; libgomp 0.5 s);
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
  // relaxed: a hint; the list is read under its lock.
  if (t == nullptr && me.returned_count.load(std::memory_order_relaxed) > 0) {
    t = returned_pop(me, tied);
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
      MemberTasks& victim = tt.members[(ts.tid + k) % n];
      // relaxed: a hint, as above.
      if (tied == nullptr && victim.returned_count.load(std::memory_order_relaxed) > 0) {
        t = returned_pop(victim, nullptr);
        if (t != nullptr) break;
      }
      // A suspended member takes only what may descend from its task (the top of a deque is
      // its oldest task, rarely one): taking others would only move them to returned lists.
      t = tied == nullptr
              ? victim.deque.steal()
              : victim.deque.steal_if([tied](const Task* c) { return may_descend(c, tied); });
      if (t != nullptr && tied != nullptr && !descends(t, tied)) {
        returned_push(tt, t);
        // a member that looked at the returned list before our push may have gone to sleep:
        // wake it (the barrier_poke protocol).
        barrier_poke(team);
        t = nullptr;
      }
    }
    // Out of other work while suspended: descendants of our task in the other members' returned
    // lists, unless none was returned since the last fruitless look for the same task.
    // relaxed: a hint; a stale value only delays the look to the next pick.
    const std::uint64_t version = tt.returned_version.load(std::memory_order_relaxed);
    if (t == nullptr && tied != nullptr &&
        (me.returned_miss_tied != tied || version != me.returned_miss_version)) {
      for (int k = 1; k < n && t == nullptr; ++k) {
        MemberTasks& other = tt.members[(ts.tid + k) % n];
        // relaxed: a hint, as above.
        if (other.returned_count.load(std::memory_order_relaxed) > 0) {
          t = returned_pop(other, tied);
        }
      }
      if (t == nullptr) {
        me.returned_miss_tied = tied;
        me.returned_miss_version = version;
      }
    }
  }
  return t;
}

}  // namespace

// ---- internal interface (task.hpp) ----

namespace task_detail {

bool may_descend(const Task* c, const Task* w) noexcept {
  const Task* root = task_root(c);
  if (w->implicit) return root == w && c != w;
  return root == task_root(w) && task_depth(c) > task_depth(w);
}

bool descends(const Task* c, const Task* w) noexcept {
  // Within the team's task tree only (the chain ends at c's implicit task, root).
  if (!may_descend(c, w)) return false;
  if (w->implicit) return true;
  // The ancestor of c at w's depth, by jumps where they do not overshoot (Task::jump_).
  const int d = task_depth(w);
  const Task* p = c;
  while (task_depth(p) > d) {
    const Task* j = task_jump(p);
    p = task_depth(j) >= d ? j : p->parent;
  }
  return p == w;
}

// push_own queues a new ready task of ts's team on ts's deque (or the shared list for a
// priority task). False when the deque holds TaskDeque::kThrottle tasks.
bool push_own(ThreadState& ts, Task* t) noexcept {
  TeamState& team = *ts.team;
  bool was_empty = true;
  if (t->priority > 0) {
    shared_push(team.tasks, t);
  } else {
    TaskDeque& own = team.tasks.members[ts.tid].deque;
    // relaxed, both: an estimate, only the owner moves bottom and a stale top only delays the
    // throttle by a few tasks (TaskDeque::kThrottle).
    if (own.bottom.load(std::memory_order_relaxed) - own.top.load(std::memory_order_relaxed) >=
        TaskDeque::kThrottle) {
      return false;
    }
    if (!own.try_push(t, was_empty)) return false;
  }
  // Wake barrier sleepers only when the deque was empty (see schedule).
  if (was_empty) barrier_poke(team);
  return true;
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

}  // namespace task_detail

// ---- core hooks ----

bool task_run_one(ThreadState& ts) {
  Task* t = pick(ts);
  if (t == nullptr) return false;
  execute(ts, t);
  return true;
}

}  // namespace rtpar::omp
