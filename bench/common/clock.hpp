// clock.hpp — the one clock every bench program times with: CLOCK_MONOTONIC in nanoseconds.
//
// clock_gettime(CLOCK_MONOTONIC) goes through the vDSO (no system call) when the clocksource is
// tsc or kvm-clock, ~20 ns; rdtsc would be cheaper but needs calibration, and the regions we time
// cost ≥ 100 ns, so the simpler clock keeps every program comparable without per-host tuning.
#pragma once

#include <cerrno>
#include <cstdint>
#include <ctime>

namespace rtpar_bench {

// kNsPerSec converts seconds to nanoseconds.
inline constexpr std::int64_t kNsPerSec = 1'000'000'000;

// now_ns reads CLOCK_MONOTONIC (the clock rtpar releases jobs on) in nanoseconds.
inline std::int64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * kNsPerSec + ts.tv_nsec;
}

// sleep_until_ns sleeps until the absolute CLOCK_MONOTONIC time t: absolute releases do not
// drift with the time spent in the region, as the executor's periodic releases do not.
inline void sleep_until_ns(std::int64_t t) noexcept {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(t / kNsPerSec);
  ts.tv_nsec = static_cast<long>(t % kNsPerSec);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

}  // namespace rtpar_bench
