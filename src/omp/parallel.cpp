// parallel.cpp — parallel regions: team sizes, the per-master team cache, and GOMP_parallel*.
//
// A region of n > 1 threads runs on a TeamState the master created the first time it ran a region
// of that size at that nesting level; its workers are an rtpar::Team (pinned, created once), so a
// region after the first allocates nothing. A region of one (serialized: `if(0)`, num_threads(1),
// or nesting beyond max-active-levels) runs on a cached team of one with no workers, so levels,
// ancestors and work shares behave the same.
//
// Memory ordering: the master prepares the TeamState with plain stores before start(); the
// engine's fork publishes them with release exchanges that each worker acquires (team.cpp
// invariant 1); the engine's join (invariant 2) publishes the workers' writes to the master.
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "omp/check_update.hpp"
#include "omp/env.hpp"
#include "omp/runtime.hpp"
#include "platform/spin_wait.hpp"
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

namespace rtpar::omp {

// TeamCache holds the teams one thread is master of: [level][size] (serialized teams at size 1).
struct TeamCache {
  std::vector<std::vector<TeamState*>> by_level;
  // retired: teams shutdown_teams took out of by_level (without workers now), kept reachable like
  // every team until the process exits.
  std::vector<TeamState*> retired;
};

namespace {

// busy_threads counts the worker threads running regions in the process, for thread-limit-var
// (OpenMP 5.0 §2.6.1 step: the team may not exceed the threads still available). relaxed: a
// count read and adjusted without ordering other data.
std::atomic<int> busy_threads{0};

// group_busy is the busy count of the contention group team t belongs to: its own for a group
// started by a host-fallback target region (target_context.cpp), the process's otherwise.
std::atomic<int>& group_busy(const TeamState& t) noexcept {
  return t.busy != nullptr ? *t.busy : busy_threads;
}

// save_context / load_context swap the region-dependent part of a thread's state.
MemberContext save_context(const ThreadState& ts) noexcept {
  return MemberContext{ts.team, ts.tid,      ts.task,         ts.ws_next,
                       ts.ws,   ts.ws_index, ts.single_count, ts.loop};
}
void load_context(ThreadState& ts, const MemberContext& c) noexcept {
  ts.team = c.team;
  ts.tid = c.tid;
  ts.task = c.task;
  ts.ws_next = c.ws_next;
  ts.ws = c.ws;
  ts.ws_index = c.ws_index;
  ts.single_count = c.single_count;
  ts.loop = c.loop;
}

// enter_member makes ts member `rank` of team t for the region t is set up for.
void enter_member(ThreadState& ts, TeamState* t, int rank) noexcept {
  MemberContext c;
  c.team = t;
  c.tid = rank;
  c.task = &t->implicit[rank];
  c.ws_next = t->first_ws_ready ? 1 : 0;
  c.ws = t->first_ws_ready ? &t->ring[0] : nullptr;
  c.ws_index = 0;
  c.single_count = 0;
  load_context(ts, c);
  check_update(t->members[rank], &ts);  // the same thread every region (check_update.hpp)
  // A thread's task cache is made on its first region, not on its first task spawn, so that
  // spawning never allocates after the warm-up (tests/omp_runtime/alloc_count.c).
  if (__builtin_expect(ts.task_local == nullptr, 0)) task_thread_init(ts);
}

// region_end_barrier is the region's implicit barrier (docs/internals/openmp.md "Region end"):
// a real barrier, so that members stay to run tasks created after their own body ended — a
// member suspended in a taskwait may run only its descendants, so the others must be there to
// run the rest. In a cancelled region (the barrier returns early, its count no longer
// meaningful) every member drains the region's tasks, which are discarded unless started.
// Returns how the caller left the barrier. A worker that arrived last touches nothing of the
// team after it (WorkerBody; barrier_wait): parallel_end relies on it.
BarrierExit region_end_barrier(ThreadState& ts) {
  const BarrierExit exit = barrier_wait(ts, /*cancellable=*/true);
  if (exit == BarrierExit::cancelled) tasks_drain(ts);
  return exit;
}

// settle_join waits for the engine join a region of t left pending (parallel_end): after it,
// no worker of t touches the team until the next fork.
void settle_join(TeamState& t) {
  if (!t.join_pending) return;
  t.join_pending = false;
  t.engine->finish();
}

// WorkerBody is what every worker of a team runs for a region: join the team, run the outlined
// region, finish the region's tasks, and go back to its own context.
struct WorkerBody {
  TeamState* team;
  void operator()(int rank) const {
    ThreadState& ts = self();
    const MemberContext saved = save_context(ts);
    enter_member(ts, team, rank);
    if (team->confined && team->member_arrangement[rank] != team->arrangement) {
      confine_member(*team, rank);
    }
    if (team->placed) bind_member(ts, *team, rank);
    if (__builtin_expect(globals().display_affinity, 0)) display_affinity_if_changed(ts);
    BoundTrace* const trace = team->trace;
    const std::int64_t start = trace != nullptr ? monotonic_now() : 0;
    team->fn(team->data);
    region_end_barrier(ts);
    if (trace != nullptr) trace->add(rank, start, monotonic_now());
    load_context(ts, saved);
  }
};

// create_team builds the TeamState of a region of n threads mastered by the calling thread.
// Returns nullptr (and says why on stderr, once) if the kernel refuses the workers.
TeamState* create_team(int n) {
  auto t = std::make_unique<TeamState>();
  t->nthreads = n;
  t->implicit = std::make_unique<Task[]>(static_cast<std::size_t>(n));
  t->members = std::make_unique<ThreadState*[]>(static_cast<std::size_t>(n));
  // An oversubscribed team (more members than CPUs) never spins, whatever the policy: a waiter
  // would burn the time slice of the very member it waits for (libgomp throttles its spin count
  // for the same reason; measured here: 50 regions of 4 members on 2 CPUs at
  // OMP_WAIT_POLICY=active took 6.2 s spinning). Nor is it pinned: two members pinned to one
  // CPU wait for each other's time slice, while the kernel's balancing runs them wherever a CPU
  // is free (4 members on 2 CPUs: barrier 155 µs pinned, 30 µs unpinned; libgomp 41-52 µs).
  ThreadState& master = self();
  const bool bound = !master.bound_cpus.empty();
  // confined: an unbound team stays inside its encountering thread's CPUs (confinement.cpp),
  // unless the executor fixed the CPUs of unbound teams or the program asked for places.
  const bool confined =
      n > 1 && !bound && !unbound_confined() && !env::binding_requested(globals());
  // A bound master's teams never exceed its CPUs (resolve_nthreads clamps them).
  const bool oversubscribed = confined ? confine_team(master, *t) : !bound && n > unbound_procs();
  t->bound = bound;
  t->wait.kind = oversubscribed ? WaitKind::block : bound ? master.bound_wait.kind : globals().wait;
  t->wait.spin_ns = bound ? master.bound_wait.spin_ns : globals().spin_ns;
  team_tasks_init(t->tasks, n);
  auto* body = new WorkerBody{t.get()};
  t->body = new FunctionRef<void(int)>(*body);
  if (n > 1) {
    sched_param param{};
    const int policy = sched_getscheduler(0);
    t->fifo = policy == SCHED_FIFO || policy == SCHED_RR;
    if (t->fifo) sched_getparam(0, &param);
    TeamConfig config;
    config.members.resize(static_cast<std::size_t>(n));
    const int master_cpu = sched_getcpu();
    for (int r = 1; r < n; ++r) {
      ThreadConfig& m = config.members[static_cast<std::size_t>(r)];
      // Pinned: a bound team always (to the task's CPUs); an unbound one unless oversubscribed —
      // or when the executor confined unbound teams to the non-real-time cores, where even an
      // oversubscribed team stays (its members then share those CPUs, blocking when waiting).
      // A confined team's members start in the master's mask (created by it, they inherit it)
      // and move to their CPUs at their first region (confine_member).
      const bool pin = !confined && (bound || unbound_confined() || (pinning() && !oversubscribed));
      m.cpu = pin ? member_cpu_of(master, master_cpu, r) : -1;
      m.sched = t->fifo ? SchedClass::fifo : SchedClass::other;
      m.priority = t->fifo ? param.sched_priority : 0;
      m.name = "rtpar-omp";
      m.stack_bytes = globals().stack_bytes;
    }
    config.wait.kind = t->wait.kind;
    config.wait.spin_ns = Duration(globals().spin_ns);
    // The executor's member hooks (workers' budgets) go on the bound master's team of all its CPUs,
    // whose rank r is the plan's member r; a smaller num_threads team's workers are other threads.
    if (bound && n == static_cast<int>(master.bound_cpus.size())) {
      config.member_hooks = master.bound_hooks.get();
    }
    try {
      t->engine = make_team(config).release();
    } catch (const std::exception& e) {
      static std::atomic<bool> told{false};
      // relaxed: only limits the message to one.
      if (!told.exchange(true, std::memory_order_relaxed)) {
        std::fprintf(stderr,
                     "rtpar-omp: cannot create %d worker threads (%s); regions run on "
                     "one thread\n",
                     n - 1, e.what());
      }
      return nullptr;
    }
  }
  return t.release();  // teams live until the process exits (workers may still be asleep in it)
}

// team_for returns the calling thread's team for a region of n threads at nesting level `level`.
TeamState* team_for(ThreadState& ts, int level, int n) {
  if (ts.teams == nullptr) ts.teams = new TeamCache;
  auto& levels = ts.teams->by_level;
  if (levels.size() <= static_cast<std::size_t>(level)) levels.resize(level + 1);
  auto& sizes = levels[static_cast<std::size_t>(level)];
  if (sizes.size() <= static_cast<std::size_t>(n)) sizes.resize(n + 1, nullptr);
  TeamState*& t = sizes[static_cast<std::size_t>(n)];
  if (t != nullptr && t->engine != nullptr) settle_join(*t);  // before anything writes the team
  if (t == nullptr) {
    t = create_team(n);
  } else if (t->confined && !confine_check(ts, *t)) {
    // The master's mask shrank below the team's size and the team was created to spin: retire
    // it (its workers stay parked; teams live until the process exits) and build a blocking one.
    t->engine->park();
    t = create_team(n);
  }
  return t;
}

// prepare sets team t up for a region run by ts (the master) with fn(data).
void prepare(ThreadState& ts, TeamState* t, void (*fn)(void*), void* data, unsigned flags,
             const LoopInit* init) {
  // check_update throughout: a region set up as the last one stores nothing, so the workers'
  // copies of these lines stay valid (check_update.hpp). Plain or relaxed, all: no member runs
  // until the fork publishes them (see the file comment).
  check_update(t->level, ts.team->level + 1);
  check_update(t->active_level, ts.team->active_level + (t->nthreads > 1 ? 1 : 0));
  check_update(t->bound, !ts.bound_cpus.empty() || ts.team->bound);
  check_update(t->parent, ts.team);
  check_update(t->parent_tid, ts.tid);
  // A bound team is pinned to the task's CPUs when created: OMP_PROC_BIND / OMP_PLACES do not
  // move its members (the plan, not the environment, decides a real-time task's cores).
  if (t->bound) {
    check_update(t->placed, false);
  } else {
    place_region(*t, ts.task->icv, flags);
  }
  const Icvs icv = child_icvs(ts.task->icv);
  for (int r = 0; r < t->nthreads; ++r) {
    Icvs mine = icv;
    place_member_icvs(*t, r, mine);
    task_init_implicit(t->implicit[r], t, mine, ts.task);
  }
  // The barrier count is back at 0 and the cancellation flags clear after every region that was
  // not cancelled (each barrier's last arriver resets the count); only a cancelled one leaves
  // them to reset. The line holding `cancelled` is one the workers read (shared), so reading it
  // costs nothing.
  if (t->cancelled.load(std::memory_order_relaxed) ||
      t->kmp_cancel_ws.load(std::memory_order_relaxed)) {
    t->barrier_count.store(0, std::memory_order_relaxed);
    t->cancelled.store(false, std::memory_order_relaxed);
    t->kmp_cancel_ws.store(false, std::memory_order_relaxed);
  }
  check_update(t->single_next, std::uint64_t{0});
  for (int i = 0; i < kWorkShareRing; ++i) {
    WorkShare& w = t->ring[i];
    const auto free_state = static_cast<std::uint32_t>(3 * i) * 2;  // free for construct i
    // A slot no construct entered since its last reset is still reset (ws_enter moves it out of
    // this state before it writes anything else of the slot).
    if (w.state.load(std::memory_order_relaxed) == free_state) continue;
    w.state.store(free_state, std::memory_order_relaxed);
    w.left.store(0, std::memory_order_relaxed);
    w.cancelled.store(false, std::memory_order_relaxed);
    w.copyprivate = nullptr;
    loop_state_reset(w.loop);
  }
  team_tasks_begin_region(t->tasks);
  check_update(t->first_ws_ready, init != nullptr);
  if (init != nullptr) {
    (*init)(t->ring[0], t->nthreads);
    t->ring[0].state.store(2 * 2, std::memory_order_relaxed);  // 3·0+2: ready for construct 0
  }
  check_update(t->fn, fn);
  check_update(t->data, data);
}

// forget_teams_in_child runs in the child of fork(): the teams' workers do not exist there, so
// the forking thread forgets its teams (left allocated: they belong to the parent's image) and
// builds new ones at its next region.
void forget_teams_in_child() {
  self().teams = nullptr;
  // relaxed: the child has one thread.
  busy_threads.store(0, std::memory_order_relaxed);
}

// register_fork_handler installs forget_teams_in_child when the library is loaded.
__attribute__((constructor)) void register_fork_handler() {
  pthread_atfork(nullptr, nullptr, forget_teams_in_child);
}

}  // namespace

int resolve_nthreads(ThreadState& ts, unsigned requested) noexcept {
  const Icvs& icv = ts.task->icv;
  long n = requested != 0 ? static_cast<long>(requested) : icv.nthreads;
  if (n <= 1) return 1;
  if (ts.team->active_level >= icv.max_active_levels) return 1;
  // A real-time task's regions (binding.cpp) use its planned CPUs and no more: num_threads above
  // them is clamped, and a region nested in the task's team is serialized (its CPUs are busy).
  if (ts.team->bound) return 1;
  if (!ts.bound_cpus.empty()) n = std::min<long>(n, static_cast<long>(ts.bound_cpus.size()));
  if (icv.dyn) n = std::min<long>(n, globals().num_procs);
  n = std::min<long>(n, 1 << 16);
  // Claim the workers against thread-limit-var in one step: a load followed by a later add let
  // two concurrent nested regions both see the same free threads and together exceed the limit.
  // relaxed: see busy_threads.
  std::atomic<int>& group = group_busy(*ts.team);
  int busy = group.load(std::memory_order_relaxed);
  for (;;) {
    const long available = static_cast<long>(icv.thread_limit) - busy;
    const long claim = std::min(n, std::max(1L, available));
    if (claim <= 1) return 1;
    // relaxed: see busy_threads (on failure `busy` is reloaded and the claim recomputed).
    if (group.compare_exchange_weak(busy, busy + static_cast<int>(claim - 1),
                                    std::memory_order_relaxed)) {
      ts.claimed_workers = static_cast<int>(claim - 1);
      return static_cast<int>(claim);
    }
  }
}

void parallel_begin(void (*fn)(void*), void* data, int nthreads, unsigned flags,
                    const LoopInit* init) {
  ThreadState& ts = self();
  if (nthreads < 1) nthreads = 1;
  TeamState* t = team_for(ts, ts.team->level, nthreads);
  if (t == nullptr) t = team_for(ts, ts.team->level, nthreads = 1);
  prepare(ts, t, fn, data, flags, init);
  check_update(t->busy, ts.team->busy);  // the region is in its master's contention group
  // The workers resolve_nthreads claimed (when it resolved this region), adjusted to the team
  // actually built; a region started without resolve_nthreads (binding.cpp) claims them here.
  const int claimed = std::exchange(ts.claimed_workers, 0);
  t->busy_added = nthreads - 1;
  // relaxed: see busy_threads.
  if (t->busy_added != claimed) {
    group_busy(*t).fetch_add(t->busy_added - claimed, std::memory_order_relaxed);
  }
  t->master_saved = save_context(ts);
  enter_member(ts, t, 0);
  if (__builtin_expect(globals().display_affinity, 0)) display_affinity_if_changed(ts);
  if (t->engine != nullptr) {
    // A real-time master parks the workers after every region (parallel_end); when its regions
    // start periodically, the workers sleep on their own timers until the forecast next start
    // instead of waiting for a futex wake-up (self-timed release, docs/internals/openmp.md).
    // A bound master's executor says when each job is released instead (binding.cpp); it also
    // parks the teams only between jobs, so a team other than the last one used may still be
    // waiting per the policy: park it first, or a spinning worker of it would hold the CPU (same
    // SCHED_FIFO priority, no time slicing) that this team's worker needs.
    if (t->bound) {
      if (ts.last_bound_team != nullptr && ts.last_bound_team != t) {
        ts.last_bound_team->engine->park();
      }
      ts.last_bound_team = t;
      // Only the top-level team of all the task's CPUs is traced (a nested bound region is
      // serialized; a smaller num_threads team has other workers: rtpar_omp_trace_take).
      check_update(t->trace, t->level == 1 && t->nthreads == static_cast<int>(ts.bound_cpus.size())
                                 ? ts.bound_trace.get()
                                 : nullptr);
    } else if (t->fifo) {
      t->engine->expect_release(t->period.observe(detail::spin_clock_ns()));
    }
    t->engine->start(*t->body);
  }
}

void parallel_end() {
  ThreadState& ts = self();
  TeamState* t = ts.team;
  const BarrierExit exit = region_end_barrier(ts);
  if (t->engine != nullptr) {
    // The join (docs/internals/openmp.md "Region end"). A region that ended on its barrier
    // already gave the master every member's writes (barrier.cpp (1)); what the master must not
    // do is touch the team while a worker still may — a waiter between its generation check and
    // a task pop, say. So:
    //  - a team of two whose worker arrived last (it released the master): that worker touches
    //    nothing of the team after its publish (barrier_wait), so there is nothing to wait for;
    //  - otherwise the join is deferred: the next team_for waits for it (settle_join) before
    //    anything writes the team, as libgomp's master waits at the next region's dock. By then
    //    the workers have long arrived, off the region end's path;
    //  - a cancelled region's barrier synchronized nobody, and a bound team's executor reads the
    //    trace and the members' job state at the job end: those join now.
    // The engine's join counts arrivals cumulatively, so a later finish() covers every region
    // whose join was skipped (team.cpp).
    if (exit == BarrierExit::cancelled || t->bound) {
      t->engine->finish();
    } else if (exit == BarrierExit::last || t->nthreads > 2) {
      t->join_pending = true;
    }
    // Between regions the workers sleep at once when the master is real-time: a spinning
    // SCHED_FIFO worker would starve the rest of the system until RT throttling stops the core.
    // Otherwise they follow the wait policy (hybrid: spin spin_ns, then sleep).
    // A bound team is parked by its executor after the job instead (rtpar_omp_job_end): between
    // the regions of one job its members wait per the task's policy.
    if (t->fifo && !t->bound) t->engine->park();
  }
  // relaxed: see busy_threads.
  if (t->busy_added != 0) group_busy(*t).fetch_sub(t->busy_added, std::memory_order_relaxed);
  load_context(ts, t->master_saved);
}

void parallel_run(void (*fn)(void*), void* data, int nthreads, unsigned flags,
                  const LoopInit* init) {
  parallel_begin(fn, data, nthreads, flags, init);
  fn(data);
  parallel_end();
}

int worker_count(const ThreadState& ts) noexcept {
  if (ts.teams == nullptr || ts.teams->by_level.empty()) return 0;
  const auto& sizes = ts.teams->by_level[0];
  int largest = 0;
  for (std::size_t n = 2; n < sizes.size(); ++n) {
    if (sizes[n] != nullptr && sizes[n]->engine != nullptr) largest = static_cast<int>(n) - 1;
  }
  return largest;
}

void shutdown_teams(ThreadState& ts) {
  if (ts.teams == nullptr) return;
  for (auto& sizes : ts.teams->by_level) {
    for (TeamState*& t : sizes) {
      if (t == nullptr) continue;
      // The engine's destructor stops and joins its workers: each ends its open job and runs the
      // member hooks' exiting (team.cpp) before the join returns.
      delete t->engine;
      t->engine = nullptr;
      ts.teams->retired.push_back(t);  // the TeamState stays allocated, as every team does
      t = nullptr;
    }
  }
  ts.last_bound_team = nullptr;
}

void for_each_engine(const ThreadState& ts, FunctionRef<void(rtpar::Team&)> fn) {
  if (ts.teams == nullptr) return;
  for (const auto& sizes : ts.teams->by_level) {
    for (const TeamState* t : sizes) {
      if (t != nullptr && t->engine != nullptr) fn(*t->engine);
    }
  }
}

// ---- GOMP entry points ----

RTPAR_OMP_EXPORT void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads,
                                    unsigned flags) {
  parallel_run(fn, data, resolve_nthreads(self(), num_threads), flags);
}

RTPAR_OMP_EXPORT void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads) {
  parallel_begin(fn, data, resolve_nthreads(self(), num_threads), 0);
}

RTPAR_OMP_EXPORT void GOMP_parallel_end() { parallel_end(); }

// GOMP_parallel_reductions is `parallel reduction(task, ...)`: the region with a task-reduction
// registration around it; returns the team size (task_reduction.cpp registers the reductions).
// Provided by the task-reduction module.

}  // namespace rtpar::omp
