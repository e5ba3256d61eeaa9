// latency_sched.hpp — the scheduling (preemption) latency microbenchmark of RT-OpenMP §VI-B:
// how long after its release a high-priority job preempts a low-priority one on every core.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "rtpar/time.hpp"

namespace rtpar::bench {

// SchedLatencyConfig describes one run of the benchmark. The defaults keep every SCHED_FIFO phase
// short (≤ 1 ms of spinning per trial, then ≥ 2 ms idle) so that RT throttling never triggers and
// non-real-time work keeps the machine responsive.
struct SchedLatencyConfig {
  std::vector<int> cpus;  // one low- and one high-priority thread pinned to each of these
  int trials = 2000;
  bool best_effort = false;  // SCHED_OTHER for both jobs instead of SCHED_FIFO
  int low_priority = 10;     // SCHED_FIFO priority of the long-running job being preempted
  int high_priority = 80;    // SCHED_FIFO priority of the job whose start latency is measured
  // release_offset is how long after the low-priority job starts the high-priority one is
  // released: long enough that every low-priority thread is surely spinning by then.
  Duration release_offset{std::chrono::microseconds(500)};
  // spin_after is how long the low-priority job keeps spinning after the release, so the
  // high-priority job always has something to preempt even if it is woken late.
  Duration spin_after{std::chrono::microseconds(250)};
  // idle_gap separates the end of one trial's spinning from the start of the next one.
  Duration idle_gap{std::chrono::milliseconds(2)};
};

// SchedLatencyResult holds the raw samples in ns. per_trial[k] is the job-level latency of trial
// k: the latest start over all threads minus the release (the job runs once its last thread runs).
struct SchedLatencyResult {
  std::vector<std::int64_t> per_trial;
  std::vector<std::vector<std::int64_t>> per_thread;  // [thread i (on cpus[i])][trial]
  // low_start[i][k] is how late the low-priority thread on cpus[i] started spinning in trial k.
  // When it exceeds release_offset the core was not running the low-priority job at the release
  // (something non-preemptible held it), so that sample is not a preemption.
  std::vector<std::vector<std::int64_t>> low_start;
};

// measure_sched_latency runs the benchmark on the calling thread's behalf (it only waits) and
// returns the samples. Throws EnvironmentError if SCHED_FIFO or a CPU is refused and best_effort
// is false.
SchedLatencyResult measure_sched_latency(const SchedLatencyConfig& config);

}  // namespace rtpar::bench
