// latency_timing.hpp — the absolute sleeps and bounded busy-waits the latency benchmarks are
// built from. Every busy-wait takes an absolute end time, so no SCHED_FIFO spin can run away.
#pragma once

#include <sys/prctl.h>
#include "rtpar/cpu_relax.hpp"

#include <cerrno>
#include <cstdint>
#include <ctime>

#include "rtpar/time.hpp"

namespace rtpar::bench {

using rtpar::cpu_relax;

// sleep_until sleeps until the absolute CLOCK_MONOTONIC time t_ns (returns at once if it has
// passed). Absolute, so the release time the benchmark compares against is exactly the timer's.
inline void sleep_until(std::int64_t t_ns) noexcept {
  const timespec ts{static_cast<time_t>(t_ns / 1'000'000'000),
                    static_cast<long>(t_ns % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

// spin_until busy-waits until the absolute CLOCK_MONOTONIC time t_ns.
inline void spin_until(std::int64_t t_ns) noexcept {
  while (monotonic_now() < t_ns) cpu_relax();
}

// exact_timers sets the calling thread's timer slack to 1 ns. SCHED_FIFO threads get no slack
// anyway; SCHED_OTHER threads (--best-effort) would otherwise wake up to 50 µs late on purpose,
// and the benchmark would measure the slack instead of the scheduler.
inline void exact_timers() noexcept { prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL); }

}  // namespace rtpar::bench
