// runtime.hpp — the core of rtpar's OpenMP runtime (librtpar-omp, installed as libgomp.so.1):
// per-thread state, teams, the work-share ring, barriers and waiting. The GOMP entry points of
// each construct live in their own files (parallel.cpp, loop.cpp, task.cpp, ...) and meet here.
//
// Model (docs/internals/openmp.md):
//  - Every thread that calls into the runtime has a ThreadState (thread-local). A thread outside
//    any parallel region runs in a root team of one (level 0), so `ts.team` is never null.
//  - A region of n > 1 threads runs on a TeamState owned by its master thread, cached per
//    (nesting level, size): its workers are an rtpar::Team created on the first region of that
//    size and reused afterwards, so regions after the first allocate nothing.
//  - Work-sharing constructs (loops, sections, single copyprivate) are numbered per thread in
//    encounter order; construct k of a region uses slot k mod kWorkShareRing of the team's ring.
//    The first thread to reach construct k initialises the slot; the last to leave it frees the
//    slot for construct k + kWorkShareRing. Threads may run up to kWorkShareRing-1 `nowait`
//    constructs ahead of the slowest one before they wait.
#pragma once

#include <sched.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "omp/bound_trace.hpp"
#include "omp/icv.hpp"
#include "omp/loop_state.hpp"
#include "omp/task.hpp"
#include "platform/period_forecast.hpp"
#include "rtpar/function_ref.hpp"
#include "rtpar/member_job_hooks.hpp"
#include "rtpar/team.hpp"
#include "runtime/team/signal_word.hpp"

// RTPAR_OMP_EXPORT marks a GOMP_/omp_ entry point of the library's ABI (the version script
// src/omp/libgomp.map assigns its version node).
#define RTPAR_OMP_EXPORT extern "C" __attribute__((visibility("default")))

namespace rtpar::omp {

// kWorkShareRing is the number of work-share slots per team.
inline constexpr int kWorkShareRing = 8;

// WorkShare is one slot of a team's work-share ring: the shared state of one work-sharing
// construct instance while threads are inside it.
struct alignas(64) WorkShare {
  // state is a signal word (runtime/team/signal_word.hpp): payload/2 = 3k (free for construct
  // k), 3k+1 (being initialised for k), 3k+2 (ready for k). See work_share.cpp.
  std::atomic<std::uint32_t> state{0};
  std::atomic<int> left{0};       // threads that have left construct k (the last frees the slot)
  void* copyprivate = nullptr;    // single copyprivate: the executing thread's pointer
  void* scratch = nullptr;        // GOMP_loop_start's team-shared block (grow-only buffer)
  std::size_t scratch_bytes = 0;  // its capacity
  std::atomic<bool> cancelled{false};  // `cancel for` / `cancel sections` hit this construct
  LoopState loop;                      // loops and sections (loop_state.hpp)
};

struct ThreadState;
struct TeamCache;
struct TargetContext;

// MemberPlace is where one member of a bound region runs (placement.cpp): its place and the
// place partition of its implicit task (indices into Globals::places).
struct MemberPlace {
  int place = -1;
  int part_first = 0;
  int part_count = 0;
};

// MemberContext is the part of a ThreadState that a region replaces while the thread is a member
// of its team, saved on entry and restored on exit (parallel.cpp).
struct MemberContext {
  TeamState* team = nullptr;
  int tid = 0;
  Task* task = nullptr;
  std::uint32_t ws_next = 0;
  WorkShare* ws = nullptr;
  std::uint32_t ws_index = 0;
  std::uint64_t single_count = 0;
  LoopCursor loop;
};

// TeamState is the runtime state of one team (one parallel region at a time).
struct TeamState {
  int nthreads = 1;               // team size
  int level = 0;                  // nesting level of the region (0: the implicit root region)
  int active_level = 0;           // number of enclosing active (n > 1) regions, this one included
  TeamState* parent = nullptr;    // the team of the thread that created the region
  int parent_tid = 0;             // that thread's number in `parent`
  rtpar::Team* engine = nullptr;  // the workers (nullptr for a team of one)
  detail::WaitSpec wait;          // how members wait at barriers and in work shares
  bool fifo = false;              // the master ran at SCHED_FIFO when the team was created
  // bound: the region belongs to a real-time task's bound master (binding.cpp), directly or
  // nested: its CPUs are all in use, so regions inside it are serialized.
  bool bound = false;
  // trace: where the workers record their shares (a bound master's top-level team, when traced;
  // set by the master before each fork); null otherwise.
  BoundTrace* trace = nullptr;

  // Barrier (barrier.cpp): arrivals, and the generation signal word waiters watch.
  alignas(64) std::atomic<std::uint32_t> barrier_count{0};
  alignas(64) std::atomic<std::uint32_t> barrier_gen{0};
  alignas(64) std::atomic<std::uint64_t> single_next{0};  // `single` instances claimed
  alignas(64) std::atomic<bool> cancelled{false};         // `cancel parallel` was activated
  // kmp_cancel_ws: `cancel for` / `cancel sections` through LLVM's ABI, whose static loops and
  // sections use no work share (kmpc_cancel.cpp); cleared by the construct's cancel barrier.
  std::atomic<bool> kmp_cancel_ws{false};

  WorkShare ring[kWorkShareRing];
  TeamTasks tasks;                          // explicit tasks (task.hpp)
  std::unique_ptr<Task[]> implicit;         // the members' implicit tasks, [nthreads]
  std::unique_ptr<ThreadState*[]> members;  // the members' thread states during a region

  // The region being run (set by the master before the fork).
  void (*fn)(void*) = nullptr;
  void* data = nullptr;
  bool first_ws_ready = false;  // a combined parallel loop initialised work share 0
  // busy: the busy-worker count of the contention group (thread-limit-var) the team is in;
  // nullptr: the process's (parallel.cpp). A host-fallback target region starts its own group.
  std::atomic<int>* busy = nullptr;
  bool placed = false;   // this region binds its members (placement.cpp)
  int placed_bind = -1;  // when placed: the members' bind-var from a proc_bind clause; -1: kept
  std::unique_ptr<MemberPlace[]> placement;  // [nthreads] when placed
  FunctionRef<void(int)>* body = nullptr;    // what the workers run (parallel.cpp)

  // Confinement (confinement.cpp): the members of an unbound team run only on CPUs of the
  // encountering thread's affinity mask. Written by the master before a fork (published by it).
  bool confined = false;  // this team follows its encountering thread's mask
  cpu_set_t mask{};       // that mask, as the members were last arranged for
  // mask_cpus: the CPUs of `mask` members are pinned to, in place order; member r's is
  // mask_cpus[(mask_base + r) % size] when mask_pinned, else every member may use all of `mask`.
  std::vector<int> mask_cpus;
  int mask_base = 0;
  bool mask_pinned = false;
  std::uint32_t arrangement = 0;  // bumped when the members must move to a new arrangement
  // member_arrangement[r]: the arrangement member r last applied (written by r only).
  std::unique_ptr<std::uint32_t[]> member_arrangement;

  // Master-only state, written every region: on lines of its own, away from the fields above
  // that the workers read when they enter a region (check_update.hpp).
  alignas(64) MemberContext master_saved;  // the master's context outside the region
  int busy_added = 0;  // threads this region added to its contention group's count
  // join_pending: the last region ended on its barrier and its engine join is still to be
  // awaited — by the master, before it next touches the team (parallel.cpp settle_join).
  bool join_pending = false;
  // period: the starts of this team's regions, when its master is real-time (fifo), so that a
  // periodic program's workers time their own wake-up for the next region (parallel.cpp).
  detail::PeriodForecast period;
  std::int64_t mask_tick = -1;  // CLOCK_MONOTONIC_COARSE reading of the master's last mask read
};

// IncludedFrame is the frame of an included task run without a Task record of its own (a
// descendant of a final task: task_included.cpp's run_included). The task runs as its
// encountering task `owner` (ts.task stays owner), which is indistinguishable for everything it
// can do: it is final too, it can create only included tasks (so owner's child count and
// dependence table stay unchanged), and its taskgroups nest inside its own body. Only ICV changes
// would leak to owner: writable_icvs saves owner's ICVs here before the first change, and
// run_included puts them back.
struct IncludedFrame {
  IncludedFrame* prev;  // the enclosing included frame of the thread, or nullptr
  Task* owner;          // the task record this included task runs as
  bool saved;           // `icv` holds owner's ICVs as they were when the frame began
  // icv: owner's ICVs, raw bytes (Icvs has default member initialisers: a member of that type
  // would be initialised on every included task; raw storage is written only when saved).
  alignas(Icvs) unsigned char icv[sizeof(Icvs)];
};
static_assert(std::is_trivially_copyable_v<Icvs>, "IncludedFrame copies Icvs as bytes");

// ThreadState is one thread's view of the runtime.
struct ThreadState {
  TeamState* team = nullptr;       // innermost team (never null once initialised)
  int tid = 0;                     // omp_get_thread_num() in `team`
  Task* task = nullptr;            // the task the thread is running (implicit or explicit)
  std::uint32_t ws_next = 0;       // work shares this thread entered in the current region
  WorkShare* ws = nullptr;         // the current (last entered) work share
  std::uint32_t ws_index = 0;      // its construct number
  std::uint64_t single_count = 0;  // `single` constructs this thread encountered in the region
  LoopCursor loop;                 // loop_state.hpp
  int bound_place = -1;            // the place this thread's affinity was last set to (-1: none)
  void* task_local = nullptr;      // per-thread task scheduler data (task.hpp's owner decides)
  // included: the innermost included task this thread runs without a record (task_included.cpp's
  // run_included), nullptr when none; see writable_icvs.
  IncludedFrame* included = nullptr;
  // tied_wait: the innermost tied task this thread suspended at a task scheduling point other than
  // a barrier (taskwait, end of taskgroup, an undeferred task's wait), nullptr when none: while it
  // is set the thread may start only tasks that descend from it (OpenMP 5.0 §2.10.6, Task
  // Scheduling Constraint 2; task_queue.cpp's pick).
  Task* tied_wait = nullptr;
  // bound_cpus: when this thread is the bound master of a real-time task (binding.cpp), the CPU
  // of each member of its regions (member 0 = this thread); empty otherwise.
  std::vector<int> bound_cpus;
  detail::WaitSpec bound_wait;  // the task's wait policy inside a region (when bound)
  // last_bound_team: the bound team of the master's last region in this job (parallel.cpp).
  TeamState* last_bound_team = nullptr;
  // bound_trace: the slices of its top-level team's workers, when the executor asked for them
  // (rtpar_omp_trace, binding.cpp); null otherwise.
  std::unique_ptr<BoundTrace> bound_trace;
  // bound_hooks: the executor's per-member job hooks (the workers' budgets, rtpar_omp_bind's
  // binding->hooks), installed on the workers of its team of all bound_cpus; null otherwise.
  std::unique_ptr<MemberJobHooks> bound_hooks;
  // claimed_workers: workers resolve_nthreads counted against thread-limit-var for the region
  // this thread is about to start (parallel_begin takes them over).
  int claimed_workers = 0;
  // affinity_shown: the signature of this thread's last OMP_DISPLAY_AFFINITY line (affinity.cpp).
  std::uint64_t affinity_shown = 0;
  // kmp_num_threads / kmp_proc_bind: the num_threads and proc_bind clauses LLVM's ABI passes
  // before a fork (__kmpc_push_num_threads, __kmpc_push_proc_bind; kmpc_parallel.cpp), consumed by
  // the next region this thread starts (0: none).
  unsigned kmp_num_threads = 0;
  unsigned kmp_proc_bind = 0;
  // kmp_num_teams / kmp_teams_thread_limit: the same for the next `teams` (__kmpc_push_num_teams;
  // kmpc_parallel.cpp).
  unsigned kmp_num_teams = 0;
  unsigned kmp_teams_thread_limit = 0;
  // kmp_gtid: the thread's global thread number in LLVM's ABI (__kmpc_global_thread_num), unique
  // in the process; given when the state is created (thread_state.cpp).
  int kmp_gtid = 0;
  // kmp_forks: the region records of this thread's __kmpc_fork_call, one per nesting level it
  // forks at (kmpc_parallel.cpp): persistent, so that a region forked again with the same
  // microtask and arguments writes nothing its workers read (check_update.hpp). Type-erased (a
  // kmpc::Fork, the LLVM layer's type, with its deleter); made at the first fork of a level.
  std::vector<std::shared_ptr<void>> kmp_forks;
  // kmp_doacross / kmp_doacross_index: the work share of the caller's LLVM-ABI doacross loop
  // (between __kmpc_doacross_init and __kmpc_doacross_fini; kmpc_doacross.cpp), else nullptr.
  WorkShare* kmp_doacross = nullptr;
  std::uint32_t kmp_doacross_index = 0;
  std::vector<std::int64_t> kmp_doacross_dims;  // (lo, st) per dimension of that loop
  // kmp_reduce_locked: the caller holds a reduction's lock word (kmpc_reduce.cpp).
  bool kmp_reduce_locked = false;
  // kmp_threadprivate: this thread's copies of threadprivate variables in LLVM's ABI without TLS,
  // (variable, copy) pairs (kmpc_threadprivate.cpp).
  std::vector<std::pair<const void*, void*>> kmp_threadprivate;

  ThreadState* next_state = nullptr;  // the next state in thread_state.cpp's list of all
  TeamCache* teams = nullptr;  // teams this thread is master of, by level and size (parallel.cpp)
  // target: the initial-thread context of its host-fallback target regions (target_context.cpp).
  TargetContext* target = nullptr;
  TeamState root;  // the root team of one (level 0) of this thread
  Task root_task;  // the initial / implicit task of the root team
};

// tls_state is the calling thread's state, nullptr before its first call into the runtime
// (thread_state.cpp). `__thread` rather than `thread_local`: no dynamic initialiser, so other
// translation units read it directly instead of through a TLS wrapper call; initial-exec (the
// library is a DT_NEEDED dependency loaded at start, as libgomp is), so a read is one %fs-relative
// load: self() below stays a leaf, which the per-call queries (omp_get_thread_num, ...) depend on.
extern __thread ThreadState* tls_state
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

// self_slow creates the calling thread's state (first call only); out of line and cold so that
// self()'s callers save no registers for it on their fast path.
[[gnu::noinline, gnu::cold]] ThreadState& self_slow() noexcept;

// self returns the calling thread's state, creating it (and its root team) on first use.
inline ThreadState& self() noexcept {
  ThreadState* ts = tls_state;
  if (__builtin_expect(ts == nullptr, 0)) return self_slow();
  return *ts;
}

// writable_icvs returns the calling task's ICVs for an omp_set_* routine to change. When the
// calling task is an included task run without a record of its own (task_included.cpp's
// run_included), its ICVs are its encountering task's: the first change saves them in the
// included frame, which restores them when the included task ends (a task's ICV changes do not
// leak to its parent).
Icvs& writable_icvs(ThreadState& ts) noexcept;

// ---- parallel regions (parallel.cpp) ----

// LoopInit initialises work share 0 of a combined `parallel loop` before the team starts.
using LoopInit = FunctionRef<void(WorkShare& ws, int nthreads)>;

// resolve_nthreads is the team size for a region with the num_threads clause value `requested`
// (0: nthreads-var) encountered by ts (OpenMP 5.0 §2.6.1 algorithm).
int resolve_nthreads(ThreadState& ts, unsigned requested) noexcept;

// parallel_run runs fn(data) on a team of nthreads (already resolved; 1 runs it serialized),
// with the caller as member 0; `init`, when given, initialises the first work share before the
// fork. Returns after the region's implicit barrier (every task of the region done).
void parallel_run(void (*fn)(void*), void* data, int nthreads, unsigned flags,
                  const LoopInit* init = nullptr);

// parallel_begin / parallel_end are the two halves of parallel_run for the legacy
// GOMP_parallel_start/end: begin starts the workers on fn(data), the caller then runs fn(data)
// itself as member 0 and calls parallel_end.
void parallel_begin(void (*fn)(void*), void* data, int nthreads, unsigned flags,
                    const LoopInit* init = nullptr);
void parallel_end();

// ---- target regions (target_context.cpp) ----

// run_target_region runs fn(data) as a host-fallback target region: in a fresh initial-thread
// context (level 0, team of one, team 0 of 1, the initial ICVs; thread-limit-var = thread_limit
// when > 0), and returns after the region's tasks completed.
void run_target_region(void (*fn)(void*), void* data, int thread_limit);

// ---- bound masters (binding.cpp) ----

// member_cpu_of picks the CPU of member `rank` of a team mastered by ts on `master_cpu`: the bound
// task's CPUs for a bound master; otherwise the places in order starting after the master's
// (OMP_PLACES, or one place per CPU of the affinity mask — or the CPUs rtpar_omp_set_unbound_cpus
// gave), wrapping around when the team is larger. -1: not pinned.
int member_cpu_of(const ThreadState& ts, int master_cpu, int rank);

// worker_count is the number of workers of ts's largest outermost team (0: none created).
int worker_count(const ThreadState& ts) noexcept;

// shutdown_teams ends the workers of every team ts is master of and forgets the teams (a later
// region builds new ones). Call on ts's own thread outside any region, or after it ended.
void shutdown_teams(ThreadState& ts);

// for_each_engine calls fn with the workers (rtpar::Team) of every team ts is master of. Only ts's
// own thread creates teams: call it on that thread, or after it ended.
void for_each_engine(const ThreadState& ts, FunctionRef<void(rtpar::Team&)> fn);

// unbound_confined tells whether rtpar_omp_set_unbound_cpus confined unbound teams to a CPU list.
bool unbound_confined() noexcept;

// unbound_procs is the number of CPUs the teams of unbound masters may use (for oversubscription).
int unbound_procs() noexcept;

// ---- confinement (confinement.cpp) ----

// pinning says whether unbound teams pin their members: always, unless OMP_PROC_BIND=false.
bool pinning();

// confine_team arranges a new unbound team t of its master ts inside the encountering thread's
// affinity mask: fills t's mask fields, and tells whether the team is oversubscribed (more
// members than CPUs in the mask: they then share the mask's CPUs, unpinned, and must block).
bool confine_team(const ThreadState& ts, TeamState& t);

// confine_check runs at each region start of a confined team (master ts): when the encountering
// mask changed since the members were arranged, it arranges them anew (each member moves itself,
// one system call, at its next region start: confine_member). Cheap when nothing changed: the
// mask is read again only when the master runs outside it or the coarse clock ticked since the
// last read. Returns false when the new mask oversubscribes a team created to spin: the caller
// replaces the team (its wait policy is fixed at creation).
bool confine_check(const ThreadState& ts, TeamState& t);

// confine_member moves the calling member `rank` to its CPU (or the whole mask) and records the
// arrangement applied. Call when t.member_arrangement[rank] != t.arrangement.
void confine_member(TeamState& t, int rank);

// ---- affinity display (affinity.cpp) ----

// display_affinity_if_changed prints the calling member's affinity line (OMP_DISPLAY_AFFINITY)
// when what it shows changed since the thread's last line. Call only when display is on.
void display_affinity_if_changed(ThreadState& ts);

// ---- placement (placement.cpp) ----

// place_region decides where the members of team t run for a region of the encountering task
// `parent` with GOMP_parallel `flags` (proc_bind clause in the low 3 bits), when the program asked
// for binding (OpenMP 5.0 §2.6.2: master, close, spread over the place partition). Sets
// t->placed, t->placement and t->placed_bind (storing only what changed: check_update.hpp).
void place_region(TeamState& t, const Icvs& parent, unsigned flags);

// place_member_icvs gives icv, member rank's implicit-task ICVs, its place partition and bind-var
// in a placed region (nothing otherwise).
void place_member_icvs(const TeamState& t, int rank, Icvs& icv) noexcept;

// bind_member moves the calling member to its place in a placed region (a system call only when
// its place changes).
void bind_member(ThreadState& ts, const TeamState& t, int rank);

// ---- barriers (barrier.cpp) ----

// team_barrier waits until every member of the caller's team arrived and every explicit task of
// the region so far completed; waiters run queued tasks meanwhile. Returns true if the region was
// cancelled (`cancel parallel`) — only when `cancellable`. `end_ws`: the barrier ends the work
// share every member is in (ts.ws: a loop's or sections' implicit barrier); the last arriver
// frees its slot (ws_release), so that no member pays ws_leave's RMW on the shared slot after
// the barrier. Not with `cancellable` (a cancelled barrier does not gather every member).
bool team_barrier(ThreadState& ts, bool cancellable = false, bool end_ws = false);

// BarrierExit is how a member left barrier_wait.
enum class BarrierExit {
  last,       // it arrived last and released the others (a team of one: always)
  released,   // another member arrived last and released it
  cancelled,  // the region was cancelled (a cancellable barrier): not every member arrived
};

// barrier_wait is team_barrier, telling how the caller left it (parallel.cpp's region end).
BarrierExit barrier_wait(ThreadState& ts, bool cancellable = false, bool end_ws = false);

// arm_sleeper sets the SLEEPER bit of t's barrier word, whose value the caller read into v, and
// leaves in v the value to futex_wait on; false when the word changed meanwhile (look again). The
// sleeper's half of barrier.cpp's ordering (2): a seq_cst fence and a last look must follow.
bool arm_sleeper(TeamState& t, std::uint32_t& v) noexcept;

// barrier_poke wakes the members sleeping in a barrier of team t so that they re-check for
// queued tasks or cancellation (call it after queueing a task or activating cancellation). Costs
// one load when nobody sleeps. Callers make their change visible first: it starts with a seq_cst
// fence that pairs with the sleeper's fence (barrier.cpp).
void barrier_poke(TeamState& t) noexcept;

// ---- work shares (work_share.cpp) ----

// ws_enter makes the caller enter its next work-sharing construct. Returns true if the caller is
// the first thread there and must initialise ts.ws and then call ws_publish; false if the
// construct is ready (initialised by another thread). Waits while the slot still holds the
// construct kWorkShareRing earlier.
bool ws_enter(ThreadState& ts);

// ws_publish makes the initialised work share visible to the other members.
void ws_publish(ThreadState& ts);

// ws_leave makes the caller leave its current work share (the last member frees the slot).
void ws_leave(ThreadState& ts);

// ws_release frees the caller's current work share for the construct kWorkShareRing later, on
// behalf of every member: only for the last arriver of a barrier that every member reached after
// its last use of the slot, none of them calling ws_leave (team_barrier's end_ws).
void ws_release(ThreadState& ts);

// ---- single (single.cpp) ----

// single_claim says whether the caller is the member that executes its next `single` construct
// (the first to reach it).
bool single_claim(ThreadState& ts) noexcept;

// ---- waiting (wait.cpp) ----

// wait_for waits (spinning and/or sleeping per the team's wait policy) until done() holds.
// For conditions on memory that no signal word announces: it spins, then yields the CPU in
// growing sleeps, so it never spins unboundedly at SCHED_FIFO.
void wait_for(ThreadState& ts, FunctionRef<bool()> done);

}  // namespace rtpar::omp
