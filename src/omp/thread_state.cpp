// thread_state.cpp — each thread's ThreadState and its root team (runtime.hpp).
//
// The state is found through an initial-exec TLS pointer (the library is loaded at program start
// as a DT_NEEDED dependency, as libgomp is, so the static TLS model applies and self() is one
// %fs-relative load). A thread's first call builds its state: a root team of one at level 0
// whose implicit task carries the ICVs the environment set (OpenMP 5.0 §2.5.2: every initial
// thread, including each foreign pthread that enters OpenMP, starts from the initial values).
#include <atomic>

#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// all_states lists every ThreadState ever made (pushed with a CAS; never popped). States, and
// the teams and task caches they own, live until the process exits: a team's workers may sleep
// in it until then, and the list keeps them reachable for leak checkers. A foreign pthread that
// ends leaves its state here (and the workers of any team it mastered asleep): see
// docs/internals/openmp.md.
std::atomic<ThreadState*> all_states{nullptr};

// next_gtid numbers the states for LLVM's ABI (ThreadState::kmp_gtid). relaxed: the number only
// has to be unique (one RMW order on the counter); nothing is published with it.
std::atomic<int> next_gtid{0};

ThreadState* create_state() {
  auto* ts = new ThreadState;
  ts->root.nthreads = 1;
  ts->root.level = 0;
  ts->root.active_level = 0;
  ts->root.implicit.reset();
  ts->root.members = std::make_unique<ThreadState*[]>(1);
  ts->root.members[0] = ts;
  ts->root.wait.kind = globals().wait;
  ts->root.wait.spin_ns = globals().spin_ns;
  // Slot i starts "free for construct i" (work_share.cpp), as prepare() does for other teams:
  // orphaned worksharing constructs outside any region run on the root team.
  // relaxed: the state is private to this thread until now.
  for (int i = 0; i < kWorkShareRing; ++i) {
    ts->root.ring[i].state.store(static_cast<std::uint32_t>(3 * i) * 2, std::memory_order_relaxed);
  }
  team_tasks_init(ts->root.tasks, 1);
  task_init_implicit(ts->root_task, &ts->root, globals().initial, nullptr);
  ts->team = &ts->root;
  ts->tid = 0;
  ts->task = &ts->root_task;
  ts->kmp_gtid = next_gtid.fetch_add(1, std::memory_order_relaxed);
  // relaxed load, release CAS: the list is only ever walked by a leak checker after exit; the
  // CAS keeps concurrent pushes from losing one another.
  ts->next_state = all_states.load(std::memory_order_relaxed);
  while (!all_states.compare_exchange_weak(ts->next_state, ts, std::memory_order_release,
                                           std::memory_order_relaxed)) {
  }
  tls_state = ts;
  return ts;
}

}  // namespace

__thread ThreadState* tls_state = nullptr;

ThreadState& self_slow() noexcept { return *create_state(); }

}  // namespace rtpar::omp
