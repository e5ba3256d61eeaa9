// rt_throttle.hpp — the kernel's RT throttling, and what a stall caused by it looks like.
//
// With sched_rt_runtime_us < sched_rt_period_us, real-time threads on a CPU may run at most
// `runtime` of every `period`; a SCHED_FIFO thread that spins through its budget is stopped for
// the rest of the period (50 ms of every second by default). A region whose worker was stopped
// that way takes tens of ms: that is the stall the periodic variant looks for.
#pragma once

#include <cstdint>
#include <fstream>

namespace rtpar_bench {

// throttle_gap_ns is how long throttling stops RT threads per period (period - runtime), or -1
// when throttling is off (runtime -1) or the settings cannot be read.
inline std::int64_t throttle_gap_ns() {
  std::int64_t period_us = -1, runtime_us = -1;
  std::ifstream("/proc/sys/kernel/sched_rt_period_us") >> period_us;
  std::ifstream("/proc/sys/kernel/sched_rt_runtime_us") >> runtime_us;
  if (period_us <= 0 || runtime_us < 0 || runtime_us >= period_us) return -1;
  return (period_us - runtime_us) * 1000;
}

// kNoThrottleStallNs is the stall threshold when throttling is off or unknown: longer than any
// wake-up latency, far shorter than a throttling gap.
inline constexpr std::int64_t kNoThrottleStallNs = 10'000'000;

// stall_threshold_ns is the region time from which a periodic region counts as a throttling
// stall: half the gap (the worker was stopped for most of it), or kNoThrottleStallNs.
inline std::int64_t stall_threshold_ns() {
  const std::int64_t gap = throttle_gap_ns();
  return gap > 0 ? gap / 2 : kNoThrottleStallNs;
}

}  // namespace rtpar_bench
