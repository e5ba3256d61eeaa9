// barrier.cpp — the team barrier, a task scheduling point (OpenMP 5.0 §2.17.2, §2.10.6).
//
// Arrival: members fetch_add barrier_count. The last arriver first completes every explicit task
// of the region (tasks_drain), then resets the count and publishes the next generation on the
// barrier_gen signal word (runtime/team/signal_word.hpp). The other members wait for the
// generation to change, running queued tasks meanwhile; a waiter that found nothing to do sleeps
// per the team's wait policy, and barrier_poke wakes it when a task is queued or the region is
// cancelled.
//
// Memory ordering:
//  (1) the arrivals (acq_rel RMWs on barrier_count) form a release sequence read by the last
//      arriver, which thus sees every member's writes; its release exchange of barrier_gen
//      (publish) then reaches every waiter's acquire load of the new generation;
//  (2) no lost poke: a sleeper sets the SLEEPER bit, issues a seq_cst fence and looks for a task
//      once more before futex_wait; a poker queues its task, issues a seq_cst fence and then reads
//      the bit. Whichever fence is first, the other side sees the effect (a task to run, or the
//      bit to wake), as in Dekker's protocol;
//  (3) the poker then clears the bit with an RMW before waking, so that a sleeper that saw the
//      bit set but has not reached futex_wait yet finds the word changed and looks again.
#include <climits>

#include "omp/runtime.hpp"
#include "platform/futex.hpp"
#include "platform/spin_wait.hpp"

namespace rtpar::omp {

namespace {

// wait_generation waits until barrier_gen moves past `seen` (or the region is cancelled, when
// cancellable), running the team's queued tasks while waiting.
void wait_generation(ThreadState& ts, TeamState& t, std::uint32_t seen, bool cancellable) {
  bool ran = false;
  const auto done = [&] {
    // acquire (1): the new generation carries every member's writes.
    if ((t.barrier_gen.load(std::memory_order_acquire) & ~detail::kSleeper) != seen) return true;
    // acquire: pairs with GOMP_cancel's release store.
    if (cancellable && t.cancelled.load(std::memory_order_acquire)) return true;
    ran = task_run_one(ts);
    return ran;
  };
  for (;;) {
    ran = false;
    if (t.wait.kind != WaitKind::block) {
      const std::int64_t budget =
          t.wait.kind == WaitKind::spin ? detail::kSpinForever : t.wait.spin_ns;
      if (detail::spin_until(done, budget)) {
        if (ran) continue;  // ran a task: look again, with a fresh spin budget
        return;
      }
    }
    // acquire: as in done (1).
    std::uint32_t v = t.barrier_gen.load(std::memory_order_acquire);
    if ((v & ~detail::kSleeper) != seen) return;
    if (!arm_sleeper(t, v)) continue;
    // seq_cst (2): the bit is visible before we look for tasks one last time.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    ran = false;
    if (done()) {
      if (ran) continue;
      return;
    }
    detail::futex_wait(t.barrier_gen, v);
  }
}

}  // namespace

bool arm_sleeper(TeamState& t, std::uint32_t& v) noexcept {
  if ((v & detail::kSleeper) != 0) return true;
  // acquire CAS: sets the SLEEPER bit; an RMW on the word, so it is ordered with publish's
  // exchange (signal word (1)): either publish sees the bit, or the CAS fails.
  if (!t.barrier_gen.compare_exchange_weak(v, v | detail::kSleeper, std::memory_order_acquire)) {
    return false;
  }
  v |= detail::kSleeper;
  return true;
}

void barrier_poke(TeamState& t) noexcept {
  // seq_cst (2): the caller's task or cancellation flag is visible before we read the bit.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // relaxed: only decides whether a wake-up call is needed (2).
  if ((t.barrier_gen.load(std::memory_order_relaxed) & detail::kSleeper) != 0) {
    // (3) The poke must change the word, not only wake: a sleeper that did its last check before
    // our flag was visible may not have entered futex_wait yet, and a wake-up sent before it does
    // is lost (futex_wait would then sleep on the unchanged value). Clearing the SLEEPER bit makes
    // its futex_wait compare fail; it re-arms the bit and checks again before sleeping.
    // relaxed RMW: orders nothing else; it is totally ordered with the sleepers' flag CAS.
    if ((t.barrier_gen.fetch_and(~detail::kSleeper, std::memory_order_relaxed) &
         detail::kSleeper) != 0) {
      detail::futex_wake(t.barrier_gen, INT_MAX);
    }
  }
}

BarrierExit barrier_wait(ThreadState& ts, bool cancellable, bool end_ws) {
  TeamState& t = *ts.team;
  // acquire: pairs with GOMP_cancel's release store.
  if (cancellable && t.cancelled.load(std::memory_order_acquire)) return BarrierExit::cancelled;
  if (t.nthreads == 1) {
    tasks_drain(ts);
    if (end_ws) ws_leave(ts);
    // acquire: pairs with GOMP_cancel's release store.
    if (cancellable && t.cancelled.load(std::memory_order_acquire)) return BarrierExit::cancelled;
    return BarrierExit::last;
  }
  // acquire (relaxed would do: the acq_rel RMW below keeps this load before our arrival). Read
  // before arriving, so this member cannot see the next generation early.
  const std::uint32_t seen = t.barrier_gen.load(std::memory_order_acquire) & ~detail::kSleeper;
  // acq_rel (1): release publishes our writes to the last arriver; acquire lets the last
  // arriver see every member's.
  if (t.barrier_count.fetch_add(1, std::memory_order_acq_rel) ==
      static_cast<std::uint32_t>(t.nthreads - 1)) {
    tasks_drain(ts);
    // The members' last uses of the work share precede their arrivals, which (1) orders
    // before this point: the slot is free for its next construct.
    if (end_ws) ws_release(ts);
    // relaxed: no member touches the count before it sees the new generation, which the
    // release exchange in publish() orders after this store.
    t.barrier_count.store(0, std::memory_order_relaxed);
    detail::publish(t.barrier_gen, seen + 2);
    // Every member arrived, so no member cancelled the region before (a canceller returns at its
    // next cancellation point instead of arriving) and none can now (the members wait here):
    // the flag is not read again. A region-end barrier's last arriver must touch nothing of the
    // team after the publish (parallel.cpp "Region end").
    return BarrierExit::last;
  }
  wait_generation(ts, t, seen, cancellable);
  // acquire: pairs with GOMP_cancel's release store. A member leaving a cancelled barrier
  // pokes again (3): a sleeper that armed the bit just before our re-arm could otherwise
  // miss the one wake-up of the canceller (the word would read as it saw it: A-B-A).
  if (cancellable && t.cancelled.load(std::memory_order_acquire)) {
    barrier_poke(t);
    return BarrierExit::cancelled;
  }
  return BarrierExit::released;
}

bool team_barrier(ThreadState& ts, bool cancellable, bool end_ws) {
  return barrier_wait(ts, cancellable, end_ws) == BarrierExit::cancelled;
}

RTPAR_OMP_EXPORT void GOMP_barrier() { team_barrier(self()); }

RTPAR_OMP_EXPORT bool GOMP_barrier_cancel() { return team_barrier(self(), true); }

}  // namespace rtpar::omp
