// task_wait.cpp — task waits (OpenMP 5.0 §2.10.6 task scheduling points): taskwait, and the
// loop every other wait runs (taskgroup end, an undeferred task waiting for its children or its
// event, dependences, the barrier's and the region end's drain): run what the tied-task
// constraint allows, spin per the wait policy, then sleep until poked.
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
#include "omp/runtime.hpp"
#include "platform/futex.hpp"
#include "rtpar/cpu_relax.hpp"

namespace rtpar::omp {

using namespace task_detail;

namespace {

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

}  // namespace task_detail

// ---- core hooks ----

void tasks_drain(ThreadState& ts) {
  TeamTasks& tt = ts.team->tasks;
  if (team_idle(tt)) return;
  wait_until(ts, nullptr, [&tt] { return team_idle(tt); });
}

namespace task_detail {

void taskwait(ThreadState& ts) {
  Task* t = ts.task;
  // acquire: the children's acq_rel decrements carry their writes.
  if (t->refs.load(std::memory_order_acquire) == 1) return;
  wait_until(ts, t, [t] { return t->refs.load(std::memory_order_acquire) == 1; });
}

}  // namespace task_detail

// ---- GOMP entry points ----

RTPAR_OMP_EXPORT void GOMP_taskwait() { task_detail::taskwait(self()); }

}  // namespace rtpar::omp
