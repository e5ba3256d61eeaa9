// backoff.hpp — the spin policy of workers looking for work during a run.
#pragma once

#include <sched.h>

#include "rtpar/cpu_relax.hpp"

namespace rtpar::steal::detail {

// Backoff spins with cpu_relax and yields the CPU after kSpins failed attempts, so a worker that
// shares a core with the one it waits for (oversubscription, sanitizer runs, SCHED_FIFO peers of
// equal priority) lets it progress instead of burning its time slice.
class Backoff {
 public:
  static constexpr int kSpins = 256;
  // pause waits a little before the next attempt.
  void pause() noexcept {
    if (++count_ < kSpins) {
      cpu_relax();
    } else {
      count_ = 0;
      sched_yield();
    }
  }
  // reset restarts the spin phase after progress.
  void reset() noexcept { count_ = 0; }

 private:
  int count_ = 0;
};

}  // namespace rtpar::steal::detail
