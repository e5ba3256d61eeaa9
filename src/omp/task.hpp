// task.hpp — OpenMP tasks: the Task record every thread runs in (implicit or explicit) and the
// per-team task scheduler the core calls at task scheduling points. Implemented by task.cpp
// (creation, completion), task_queue.cpp (deques, shared list, tied-task constraint),
// task_wait.cpp (task waits), task_included.cpp (included tasks), task_deps.cpp, task_group.cpp,
// task_reduction.cpp and task_arena.cpp; the fields and functions marked CORE are used by the core
// (runtime.hpp) and keep their names.
//
// Scheduler model (task*.cpp, docs/internals/openmp.md):
//  - Every member of a team owns a TaskDeque (Chase-Lev): it pushes the tasks it creates at the
//    bottom and pops them there; idle members steal at the top. A waiting thread (taskwait,
//    taskgroup end, barrier, region end) runs tasks meanwhile: its own first, then stolen ones.
//  - Task descriptors and argument copies come from a process-wide arena (task_arena.cpp) with
//    per-thread free lists: no heap allocation per task after warm-up. Arena exhausted → the task
//    runs undeferred (allowed by OpenMP 5.0 §2.10.6).
//  - Lifetime: Task::refs is 1 while the task has not completed plus one per incomplete child; the
//    descriptor is freed when it drops to 0 (a child decrements its parent's count on completion).
//  - Team accounting: each member counts the tasks it created and the tasks it completed
//    (single-writer counters); outstanding = Σcompleted read first, Σcreated read second.
//  - Dependences (task_deps.cpp) are kept per parent task under a per-team mutex; priority tasks
//    and tasks released by non-members go to a small per-team locked list (`shared`).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <type_traits>

#include "omp/icv.hpp"
#include "rtpar/detail/chase_lev.hpp"

namespace rtpar::omp {

struct TeamState;
struct ThreadState;
struct Task;
struct DepTable;
struct DepEdge;

// Taskgroup is one `taskgroup` region (or the implicit one of a taskloop / task reduction).
struct Taskgroup {
  Taskgroup* prev = nullptr;             // the enclosing taskgroup of the same task
  std::atomic<std::int64_t> count{0};    // incomplete tasks of the group (and descendants)
  std::atomic<bool> cancelled{false};    // `cancel taskgroup` was activated
  std::uintptr_t* reductions = nullptr;  // registered task reductions (task_reduction.cpp)
  bool workshare = false;                // implicit group of a work share with reductions
  bool from_arena = true;                // storage came from the task arena
};

// DepRec is one dependence of a task: address and whether it writes (out/inout/mutexinoutset).
struct DepRec {
  void* addr;
  bool out;
};

// Task is one OpenMP task: the implicit task of a team member or an explicit task.
struct Task {
  Icvs icv;                   // CORE: the task's data-environment ICVs
  TeamState* team = nullptr;  // CORE: the team whose region the task belongs to
  Task* parent = nullptr;     // CORE: the generating task (nullptr for an initial task)
  bool final_task = false;    // CORE: omp_in_final()
  bool implicit = true;       // CORE: an implicit task

  bool detachable = false;  // has a detach event (completion needs omp_fulfill_event)
  bool deferred = false;    // queued (arena descriptor), not run in its creator's frame
  bool heap = false;        // descriptor from the heap (arena exhausted; see task_spawn)
  // copy_ctors_done: its firstprivate copies were made by the program's copy function (C++
  // copy constructors): cancellation does not drop it, since only its body runs the destructors.
  bool copy_ctors_done = false;
  int priority = 0;             // clamped priority clause
  int creator = 0;              // team member that created the task (it runs the parent: tied)
  void (*fn)(void*) = nullptr;  // the outlined body
  void* arg = nullptr;          // its argument copy
  // refs: 1 until the task completes, plus one per incomplete child (see file comment).
  std::atomic<std::int64_t> refs{1};
  // detach_pending: 2 for a detachable task (body, event); whoever brings it to 0 completes it.
  std::atomic<int> detach_pending{0};
  Taskgroup* tg_member = nullptr;   // taskgroup the task belongs to (counted there)
  Taskgroup* tg_current = nullptr;  // innermost taskgroup inside the task region
  // Dependences (task_deps.cpp), all guarded by the team's deps_lock.
  DepRec* deps = nullptr;  // this task's dependences (in its arena block, or deps_mem's)
  int ndeps = 0;
  // deps_mem: where `deps` lives when not in the task's own block (LLVM's ABI gives the
  // dependences after the task was allocated: kmpc_task.cpp); free_task releases it.
  static constexpr std::uint8_t kDepsInline = 0, kDepsArena = 1, kDepsHeap = 2;
  std::uint8_t deps_mem = kDepsInline;
  std::atomic<int> npred{0};      // incomplete predecessors
  DepEdge* succ = nullptr;        // tasks waiting for this one
  DepTable* dep_table = nullptr;  // as a parent: its children's dependences by address
  Task* next = nullptr;           // link in TeamTasks::shared or MemberTasks::returned
  // depth_: explicit tasks between this one and its implicit task (0 for an implicit task);
  // root_: that implicit task (itself for an implicit task); jump_: an ancestor (itself for an
  // implicit task) chosen by the skew-binary rule of set_lineage_child, so that descends() finds
  // the ancestor at any depth in O(log depth) steps (Myers, "An applicative random-access stack",
  // IPL 17(5), 1983). Set once at creation (set_lineage*), read with task_depth/task_root/
  // task_jump: descends() answers in O(1) for an implicit ancestor. Plain fields without an
  // initializer, accessed only with relaxed atomic builtins: a thief's steal_if reads them on a
  // descriptor that placement new may be re-creating at that moment, and a constructor-initialised
  // member (std::atomic included) would be a plain write racing that read.
  int depth_;
  const Task* root_;
  const Task* jump_;
};

// task_depth is t's depth_ (relaxed: see Task::depth_).
inline int task_depth(const Task* t) noexcept {
  return __atomic_load_n(&t->depth_, __ATOMIC_RELAXED);
}
// task_root is t's root_ (relaxed: see Task::depth_).
inline const Task* task_root(const Task* t) noexcept {
  return __atomic_load_n(&t->root_, __ATOMIC_RELAXED);
}
// task_jump is t's jump_ (relaxed: see Task::depth_).
inline const Task* task_jump(const Task* t) noexcept {
  return __atomic_load_n(&t->jump_, __ATOMIC_RELAXED);
}
// set_lineage_root makes t the root of its task tree (an implicit task): depth 0, its own root
// and jump (relaxed: published with the task).
inline void set_lineage_root(Task& t) noexcept {
  __atomic_store_n(&t.depth_, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&t.root_, &t, __ATOMIC_RELAXED);
  __atomic_store_n(&t.jump_, &t, __ATOMIC_RELAXED);
}
// set_lineage_child sets the lineage of t, a new child of `parent` (relaxed: published with the
// task). Jump rule (skew-binary, Myers 1983): when the parent's jump and its jump's jump span
// equal depths, t jumps over both, else t jumps to its parent; every jump then spans 2^k - 1
// levels and any ancestor is reached in O(log depth) jumps and parent steps (descends).
inline void set_lineage_child(Task& t, const Task* parent) noexcept {
  const Task* j = task_jump(parent);
  const Task* jj = task_jump(j);
  const int dp = task_depth(parent);
  const Task* jump = dp - task_depth(j) == task_depth(j) - task_depth(jj) ? jj : parent;
  __atomic_store_n(&t.depth_, dp + 1, __ATOMIC_RELAXED);
  __atomic_store_n(&t.root_, task_root(parent), __ATOMIC_RELAXED);
  __atomic_store_n(&t.jump_, jump, __ATOMIC_RELAXED);
}

// TaskDeque is a member's deque of ready tasks: rtpar's one Chase–Lev deque (the work-stealing
// runtime's, rtpar/detail/chase_lev.hpp, which states the orderings) over a fixed ring of
// kCapacity slots. A full deque refuses a push (try_push): the task then runs at once.
struct TaskDeque : rtpar::detail::ChaseLevDeque<Task> {
  static constexpr std::int64_t kCapacity = 1 << 12;
  // kThrottle: with this many tasks queued on the member's deque, a new task runs at once
  // instead (push_own refuses it), as libgomp's GOMP_task runs a task undeferred once the team
  // has more than 64 queued per member (task.c, `team->task_count > 64 * team->nthreads`). Enough
  // for thieves to find work; beyond it a member that nobody steals from (its teammates
  // descheduled: more members than CPUs, or a shared CPU at SCHED_FIFO) pays the queue's cost for
  // nothing: tree_search.c's 8 M tasks at 2 threads on one CPU at FIFO 30 took 0.80-0.87 s with
  // only the capacity as a bound, 0.59 s with this one (libgomp 0.43 s).
  static constexpr std::int64_t kThrottle = 64;
  std::atomic<Task*> slots[kCapacity];
  TaskDeque() noexcept {
    buffer = slots;
    mask = kCapacity - 1;
  }
  TaskDeque(const TaskDeque&) = delete;
  TaskDeque& operator=(const TaskDeque&) = delete;
};

// MemberTasks is one member's part of the team scheduler.
struct alignas(64) MemberTasks {
  TaskDeque deque;
  alignas(64) std::atomic<std::uint64_t> created{0};    // written by the member only
  alignas(64) std::atomic<std::uint64_t> completed{0};  // written by the member only
  // The member's last fruitless look at the shared list while suspended in tied_miss (owner
  // only): the list's version then. Until the version moves, the list holds nothing that task
  // may start, and the member does not take the list's lock to look again (task_queue.cpp's pick).
  std::uint64_t shared_miss_version = 0;
  const Task* tied_miss = nullptr;
  // returned: tasks this member created that a suspended thief stole but may not start (the
  // tied-task constraint; task_queue.cpp's pick), deepest first; returned_lock guards it,
  // returned_count is its size, read without the lock to skip an empty list.
  std::mutex returned_lock;
  Task* returned = nullptr;
  std::atomic<int> returned_count{0};
  // The member's last fruitless look at the other members' returned lists while suspended in
  // returned_miss_tied (owner only): TeamTasks::returned_version then.
  std::uint64_t returned_miss_version = 0;
  const Task* returned_miss_tied = nullptr;
};

// TeamTasks is a team's explicit-task scheduler state, embedded in TeamState.
struct TeamTasks {
  std::atomic<std::int64_t> outstanding{0};  // unused (kept for the core contract's layout)
  int nthreads = 0;
  std::unique_ptr<MemberTasks[]> members;  // [nthreads]
  // completions by threads that are not members of the team (omp_fulfill_event): relaxed
  // counter read with the others; fetch_add release.
  alignas(64) std::atomic<std::uint64_t> ext_completed{0};
  // shared: priority-ordered list of tasks that are not in a deque (priority > 0, released by a
  // non-member, or a full deque). Guarded by shared_lock; shared_count is its size, read without
  // the lock to skip it when empty.
  std::mutex shared_lock;
  Task* shared = nullptr;
  std::atomic<int> shared_count{0};
  // shared_version counts pushes onto the shared list (written under shared_lock; relaxed reads
  // are hints: a member that reads a stale version looks under the lock anyway, next time).
  std::atomic<std::uint64_t> shared_version{0};
  // returned_version counts pushes onto the members' returned lists (relaxed: a hint, as
  // shared_version).
  std::atomic<std::uint64_t> returned_version{0};
  // deps_lock guards every dependence table, DepRec, npred and succ list of the team's tasks.
  std::mutex deps_lock;
  DepEdge* free_edges = nullptr;  // edge pool (under deps_lock)
  // waiters: members asleep in a task wait (taskwait, taskgroup end, an undeferred task's wait)
  // on the team's barrier word; the completion that may end such a wait pokes the word when it is
  // not 0 (task_wait.cpp, "Sleeping in a task wait"). seq_cst increments and loads.
  alignas(64) std::atomic<int> waiters{0};
};

// task_init_implicit makes t the implicit task of a member of `team` (CORE; at region start).
void task_init_implicit(Task& t, TeamState* team, const Icvs& icv, Task* parent) noexcept;

// team_tasks_init prepares a team's scheduler once, when the team is created (CORE).
void team_tasks_init(TeamTasks& tasks, int nthreads);

// team_tasks_begin_region resets per-region state; called by the master before the fork (CORE).
void team_tasks_begin_region(TeamTasks& tasks) noexcept;

// task_thread_init creates the calling thread's task-scheduler data (ThreadState::task_local)
// (CORE: a thread entering its first region, so that no task spawn allocates later).
void task_thread_init(ThreadState& ts);

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

// ---- for loop_start.cpp and sections.cpp (work shares with task reductions: GOMP_loop_start,
// GOMP_sections2_start) ----

// workshare_taskgroup_start opens the implicit taskgroup of a work share with task reductions.
void workshare_taskgroup_start(ThreadState& ts);

// workshare_reduction_attach registers `data` in that taskgroup: the first thread of the work
// share passes orig = nullptr (allocates), the others pass the first thread's array.
// (loop_start.cpp's weak hook workshare_task_reduction_register(ts, data), defined in
// task_reduction.cpp, does both steps.)
void workshare_reduction_attach(ThreadState& ts, std::uintptr_t* data, std::uintptr_t* orig);

// ---- internal (task*.cpp) ----
namespace task_detail {

// kFlag* are GOMP_task's flag bits (GCC's gomp-constants.h, GOMP_TASK_FLAG_*).
constexpr unsigned kFlagFinal = 2;
constexpr unsigned kFlagDepend = 8;
constexpr unsigned kFlagPriority = 16;
constexpr unsigned kFlagDetach = 8192;

// team_idle says whether no task of the team is outstanding (task.cpp, "Accounting").
bool team_idle(TeamTasks& tt) noexcept;
// execute runs deferred task t on ts and completes it (unless its detach event is pending).
void execute(ThreadState& ts, Task* t);
// push_own queues a new ready task of ts's team on ts's deque (or the shared list for a
// priority task). False when the deque holds TaskDeque::kThrottle tasks (the task then runs at
// once).
bool push_own(ThreadState& ts, Task* t) noexcept;

// wait_until_fn runs queued tasks until done(ctx) holds (spins per the team's wait policy, then
// sleeps on the team's barrier word until a task is queued or a completion may have ended the
// wait — with a growing timeout for the waits no completion pokes — so it never spins
// unboundedly at SCHED_FIFO nor polls a descheduled teammate's progress). `tied` is the tied task
// suspended by the wait (ThreadState::tied_wait): only its descendants may start meanwhile; nullptr
// at a barrier.
void wait_until_fn(ThreadState& ts, Task* tied, bool (*done)(void*), void* ctx);
// poke_waiters wakes the members of `team` asleep in a task wait, if any, after a completion
// that may end one; the caller's decrement must be a seq_cst RMW (task_wait.cpp, "Sleeping in a
// task wait").
void poke_waiters(TeamState& team) noexcept;
// wait_until is wait_until_fn for a callable.
template <class F>
inline void wait_until(ThreadState& ts, Task* tied, F&& done) {
  using Fn = std::remove_reference_t<F>;
  wait_until_fn(
      ts, tied, [](void* c) { return static_cast<bool>((*static_cast<Fn*>(c))()); },
      const_cast<void*>(static_cast<const void*>(&done)));
}

// may_descend is descends' O(1) necessary condition (same implicit task, deeper), reading only
// atomics of c: safe on a descriptor another thread may be recycling (steal_if).
bool may_descend(const Task* c, const Task* w) noexcept;

// descends says whether task c descends from task w (w is c's parent, grandparent, ...): the
// test of the tied-task scheduling constraint. c is queued or running, so every ancestor is alive
// (each counts c's line in its refs) and their parent fields were published with c.
bool descends(const Task* c, const Task* w) noexcept;

// arena_alloc returns `bytes` of task memory (16-aligned), or nullptr when the arena is full.
void* arena_alloc(ThreadState& ts, std::size_t bytes) noexcept;
// arena_free returns a block from arena_alloc (any thread may free any block).
void arena_free(ThreadState& ts, void* p) noexcept;

// cancellation_on mirrors globals().cancellation (read once).
bool cancellation_on() noexcept;
// task_dropped says whether a not yet started task must be skipped (cancelled parallel or group).
bool task_dropped(const Task& t) noexcept;
// group_cancelled says whether g or an enclosing group is cancelled.
bool group_cancelled(const Taskgroup* g) noexcept;

// spawn queues a prepared deferred task t (deps resolved: npred == 0) on ts's team.
void schedule(ThreadState& ts, Task* t) noexcept;
// complete finishes task t (body run and event fulfilled): dependences, groups, parent, counts.
void complete(ThreadState& ts, Task* t) noexcept;

// deps_count returns the number of dependences in a GOMP depend array.
std::size_t deps_count(void** depend) noexcept;
// deps_fill copies a GOMP depend array into recs (deps_count entries).
void deps_fill(void** depend, DepRec* recs) noexcept;
// deps_register links task t (child of parent) after its predecessors; `insert` also records t
// so that later siblings depend on it. Returns t->npred (0: ready). Takes deps_lock.
int deps_register(Task* parent, Task* t, bool insert);
// deps_release removes t from its parent's table and releases its successors (deps_lock).
void deps_release(ThreadState& ts, Task* t);
// deps_free_table frees a parent's dependence table (no child left).
void deps_free_table(Task* t) noexcept;
// deps_wait makes the calling task wait for the predecessors of a dependence set (undeferred
// task, taskwait depend), running other tasks meanwhile.
void deps_wait(ThreadState& ts, void** depend);

// taskwait waits until every child of the caller's current task completed (GOMP_taskwait),
// running queued tasks meanwhile.
void taskwait(ThreadState& ts);

// taskgroup_begin / taskgroup_finish implement GOMP_taskgroup_start/end.
Taskgroup* taskgroup_begin(ThreadState& ts);
void taskgroup_finish(ThreadState& ts);

// reduction_register implements GOMP_taskgroup_reduction_register's allocation (nthreads copies).
void reduction_register(std::uintptr_t* data, std::uintptr_t* old, std::uintptr_t* orig,
                        unsigned nthreads);

// pending_region_group: the taskgroup GOMP_parallel_reductions gives the next region's implicit
// tasks (read by task_init_implicit, cleared by team_tasks_begin_region).
Taskgroup*& pending_region_group() noexcept;

// task_new constructs the record of a deferred task, child of ts's current task, at `mem` (arena
// or heap memory of at least sizeof(Task)): fields only, nothing counted or queued yet.
Task* task_new(ThreadState& ts, void* mem, bool heap, bool final_task, int priority,
               void (*fn)(void*)) noexcept;
// task_count counts a new task t (from task_new) in its parent, its taskgroup and the team.
void task_count(ThreadState& ts, Task* t) noexcept;
// task_launch counts t (task_count), registers its dependences (t->deps, t->ndeps) and queues it
// — or runs it at once when `run_now`, in a team of one, or when the deque is full.
void task_launch(ThreadState& ts, Task* t, bool run_now);

// task_spawn creates a task (GOMP_task semantics; taskloop passes a bounds setter).
void task_spawn(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                long arg_align, bool if_clause, unsigned flags, void** depend, int priority,
                void* detach, void (*set_bounds)(void* arg, const void* bounds),
                const void* bounds);

}  // namespace task_detail

}  // namespace rtpar::omp
