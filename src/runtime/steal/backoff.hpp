// backoff.hpp — the spin policy of workers looking for work during a run.
#pragma once

#include <sched.h>

#include "rtpar/cpu_relax.hpp"

namespace rtpar::steal::detail {

// Backoff spaces failed steal attempts exponentially, from one cpu_relax up to kMaxPauses
// (≈ 0.8 µs on the development VM), and yields the CPU after kYieldAfter attempts at the cap
// (a few hundred µs of fruitless spinning).
//
// The spacing matters because a steal attempt reads the victim's `bottom`: every read pulls the
// line into the thief's cache, and the victim's next push or pop must fetch it back (≈ 100–200 ns
// between the two vCPUs here). A thief retrying every few ns made every join of its victim miss;
// at ≤ one attempt per ~0.8 µs the victim pays at most one such miss per interval. The yield lets
// a worker that shares a core with the one it waits for (oversubscription, sanitizer runs,
// SCHED_FIFO peers of equal priority) progress; it is rare enough that a worker with a core of its
// own almost never enters the kernel while it spins.
class Backoff {
 public:
  static constexpr int kMaxPauses = 32;
  static constexpr int kYieldAfter = 256;
  // pause waits before the next attempt; returns early once done() holds (a cheap check of a
  // line nobody writes until the event, e.g. a frame's state).
  template <class Done>
  void pause(Done done) noexcept {
    for (int i = 0; i < pauses_; ++i) {
      if (done()) return;
      cpu_relax();
    }
    if (pauses_ < kMaxPauses) {
      pauses_ *= 2;
    } else if (++capped_ >= kYieldAfter) {
      capped_ = 0;
      sched_yield();
    }
  }
  // pause waits before the next attempt.
  void pause() noexcept {
    pause([] { return false; });
  }
  // reset restarts the spacing after progress.
  void reset() noexcept {
    pauses_ = 1;
    capped_ = 0;
  }

 private:
  int pauses_ = 1;
  int capped_ = 0;
};

}  // namespace rtpar::steal::detail
