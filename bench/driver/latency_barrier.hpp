// latency_barrier.hpp — the barrier latency microbenchmark of RT-OpenMP §VI-B: once the last
// member of a team reaches a barrier, how long until the most delayed member has left it.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "rtpar/team.hpp"
#include "rtpar/time.hpp"

namespace rtpar::bench {

// BarrierLatencyConfig describes one run: a team with one member pinned to each CPU, crossing one
// barrier per job; jobs are separated like the jobs of a periodic task (park, then sleep).
struct BarrierLatencyConfig {
  std::vector<int> cpus;  // member r is pinned to cpus[r]; member 0 is the master
  int trials = 2000;      // jobs, one measured barrier each
  bool best_effort = false;
  int priority = 80;  // SCHED_FIFO priority of every member
  WaitPolicy wait;
  // stagger makes member r busy-wait r·stagger after it enters the job before it arrives at the
  // barrier, so members arrive one after another and the barrier has real waiters.
  Duration stagger{std::chrono::microseconds(5)};
  // gap is the idle time between jobs (after Team::park()), like a periodic task between jobs.
  Duration gap{std::chrono::milliseconds(1)};
};

// BarrierLatencyResult holds the raw samples in ns.
struct BarrierLatencyResult {
  // per_trial[k]: last exit − last arrival in job k (the delay of the most delayed member).
  std::vector<std::int64_t> per_trial;
  // per_member[r][k]: member r's exit − last arrival in job k (negative never happens: nobody
  // can leave before the last member arrived).
  std::vector<std::vector<std::int64_t>> per_member;
};

// measure_barrier_latency builds the team, runs the trials on a master thread pinned to cpus[0]
// and returns the samples. Throws EnvironmentError if SCHED_FIFO or a CPU is refused and
// best_effort is false.
BarrierLatencyResult measure_barrier_latency(const BarrierLatencyConfig& config);

}  // namespace rtpar::bench
