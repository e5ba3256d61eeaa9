// bench_steal_interference.hpp — the multiprogrammed variant of `rtpar bench steal`: one
// higher-priority periodic thread per core that works and touches memory (P3LS3 §5: "one
// higher priority process per CPU core ... periodically performing work and memory access,
// resulting in a measured per core utilization of an average 25%").
//
// The interference threads live in the orchestrator (`rtpar`), not in the bench program, so the
// program's ru_maxrss is the benchmark's alone. They run SCHED_FIFO above the benchmark threads
// (which run SCHED_FIFO at a lower priority), are pinned one per CPU, and are released at absolute
// times with staggered phases (CPU k starts k/ncpu of a period later, as independent processes
// would not be synchronized). Each release busy-works for utilization × period, reading and
// writing its own buffer, so it also evicts the benchmark's cache lines.
//
// RT throttling: interference plus benchmark keep each CPU 100% busy with SCHED_FIFO threads
// while a repetition runs, so the kernel's RT budget (sched_rt_runtime_us of every
// sched_rt_period_us, 950 ms of 1 s by default) is the limit. The programs rest between
// repetitions (--rest-ratio) to stay below it; if it is hit anyway, every RT thread on the CPU is
// stopped for the rest of the period — the interference threads too, whose next release is then
// tens of ms late. That lateness is what `stalls` counts (rt_throttle.hpp's threshold).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rtpar::bench {

// InterferenceConfig describes the interference threads.
struct InterferenceConfig {
  std::vector<int> cpus;                // one thread per CPU
  int priority = 20;                    // SCHED_FIFO priority (above the benchmark's)
  std::int64_t period_ns = 2'000'000;   // release period
  double utilization = 0.25;            // busy share of each period
  std::size_t buffer_bytes = 1u << 20;  // memory each thread walks while busy
};

// InterferenceStats summarizes what the threads did between start and stop.
struct InterferenceStats {
  double utilization = 0.0;      // measured busy time / wall time, mean over the threads
  std::int64_t releases = 0;     // releases over all threads
  std::int64_t max_late_ns = 0;  // worst release lateness (wake-up - release time)
  std::int64_t stalls = 0;       // releases late by at least the RT-throttling threshold
  std::int64_t stall_threshold_ns = 0;
};

// Interference runs the periodic threads from construction to stop() (or destruction).
class Interference {
 public:
  // Interference starts one thread per CPU; throws std::runtime_error naming what the kernel
  // refused (SCHED_FIFO without privilege, an offline CPU).
  explicit Interference(const InterferenceConfig& config);
  ~Interference();
  Interference(const Interference&) = delete;
  Interference& operator=(const Interference&) = delete;

  // stop ends every thread (within one period) and returns the statistics; idempotent.
  InterferenceStats stop();

 private:
  struct Worker;
  InterferenceConfig config_;
  std::atomic<bool> stop_{false};
  std::vector<std::unique_ptr<Worker>> workers_;
  std::int64_t start_ns_ = 0;
  bool stopped_ = false;
  InterferenceStats stats_;
};

// probe_fifo checks that this process may create a SCHED_FIFO thread at priority; returns "" or
// what the kernel said.
std::string probe_fifo(int priority);

}  // namespace rtpar::bench
