// latency_sched.cpp — see latency_sched.hpp.
//
// Timeline of trial k (all times absolute CLOCK_MONOTONIC, computed from one t0, so no thread
// needs to talk to another during the run):
//
//   start(k)   = t0 + k·period        every low-priority thread wakes and busy-spins
//   release(k) = start(k) + offset    every high-priority thread's absolute timer expires on its
//                                     own core; on wake-up it reads the clock first thing
//   end(k)     = release(k) + after   the low-priority threads stop spinning and sleep
//   period     = offset + after + idle_gap
//
// The high-priority thread of CPU i sleeps on CPU i, so its timer interrupt fires on the core the
// low-priority thread occupies and the wake-up must preempt it: the sample is timer interrupt +
// wake-up + preemption + context switch, the paper's "scheduling latency". Spinning is bounded
// by end(k) even when a thread wakes late, so each core runs SCHED_FIFO code for at most
// offset + after (750 µs by default) per period, well inside the RT throttling budget.
#include "driver/latency_sched.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "driver/latency_timing.hpp"
#include "platform/futex.hpp"
#include "platform/rt_thread.hpp"
#include "rtpar/error.hpp"

namespace rtpar::bench {

namespace {

// kWarmupTrials are run first and discarded: the first wake-ups of fresh threads take page faults
// and cold kernel paths that a long-running system never sees again.
constexpr int kWarmupTrials = 10;

// StartGate holds every thread until all have been created and t0 is known (open), or tells them
// to quit if creating a later thread failed, e.g. because SCHED_FIFO was refused (abort).
class StartGate {
 public:
  // open lets the threads go. Its release store publishes everything written before it (t0).
  void open() noexcept { finish(kGo); }
  // abort makes every waiting thread return without running a trial.
  void abort() noexcept { finish(kAbort); }
  // wait blocks until open() or abort(); true means go.
  bool wait() noexcept {
    std::uint32_t s;
    while ((s = state_.load(std::memory_order_acquire)) == kClosed) {
      detail::futex_wait(state_, kClosed);
    }
    return s == kGo;
  }

 private:
  static constexpr std::uint32_t kClosed = 0, kGo = 1, kAbort = 2;
  void finish(std::uint32_t s) noexcept {
    state_.store(s, std::memory_order_release);
    detail::futex_wake(state_, INT_MAX);
  }
  std::atomic<std::uint32_t> state_{kClosed};
};

// Timeline computes the absolute times of each trial (see the file comment).
struct Timeline {
  std::int64_t t0 = 0;
  std::int64_t period = 0;
  std::int64_t offset = 0;
  std::int64_t after = 0;

  [[nodiscard]] std::int64_t start(int k) const noexcept { return t0 + k * period; }
  [[nodiscard]] std::int64_t release(int k) const noexcept { return start(k) + offset; }
  [[nodiscard]] std::int64_t end(int k) const noexcept { return release(k) + after; }
};

ThreadConfig thread_config(const SchedLatencyConfig& config, int cpu, bool high) {
  ThreadConfig t;
  t.cpu = cpu;
  t.sched = config.best_effort ? SchedClass::other : SchedClass::fifo;
  t.priority = high ? config.high_priority : config.low_priority;
  t.name = std::string(high ? "lat-high-" : "lat-low-") + std::to_string(cpu);
  return t;
}

}  // namespace

SchedLatencyResult measure_sched_latency(const SchedLatencyConfig& config) {
  const int trials = std::max(config.trials, 0);
  const int total = kWarmupTrials + trials;
  const std::size_t n = config.cpus.size();
  SchedLatencyResult result;
  // Preallocated: the high-priority threads only store into their own vector during the run.
  result.per_thread.assign(n, std::vector<std::int64_t>(static_cast<std::size_t>(trials), 0));
  result.low_start = result.per_thread;

  Timeline line;
  line.offset = config.release_offset.count();
  line.after = config.spin_after.count();
  line.period = line.offset + line.after + config.idle_gap.count();

  StartGate gate;
  std::vector<std::unique_ptr<detail::RtThread>> threads;
  threads.reserve(2 * n);
  try {
    for (std::size_t i = 0; i < n; ++i) {
      const int cpu = config.cpus[i];
      // The low-priority job: spin from start(k) to end(k), sleep the rest of the period.
      std::int64_t* late = result.low_start[i].data();
      threads.push_back(std::make_unique<detail::RtThread>(
          thread_config(config, cpu, false), [&gate, &line, total, late] {
            exact_timers();
            if (!gate.wait()) return;
            for (int k = 0; k < total; ++k) {
              const std::int64_t start = line.start(k);
              sleep_until(start);
              if (k >= kWarmupTrials) late[k - kWarmupTrials] = monotonic_now() - start;
              spin_until(line.end(k));
            }
          }));
      // The high-priority job: the first thing it does on wake-up is read the clock.
      std::int64_t* samples = result.per_thread[i].data();
      threads.push_back(std::make_unique<detail::RtThread>(
          thread_config(config, cpu, true), [&gate, &line, total, samples] {
            exact_timers();
            if (!gate.wait()) return;
            for (int k = 0; k < total; ++k) {
              const std::int64_t release = line.release(k);
              sleep_until(release);
              const std::int64_t latency = monotonic_now() - release;
              if (k >= kWarmupTrials) samples[k - kWarmupTrials] = latency;
            }
          }));
    }
  } catch (...) {
    gate.abort();
    for (auto& t : threads) t->join();
    throw;
  }
  // A few ms of lead time: every thread is back asleep on its first timer before start(0).
  line.t0 = monotonic_now() + 5'000'000;
  gate.open();
  for (auto& t : threads) t->join();

  result.per_trial.assign(static_cast<std::size_t>(trials), 0);
  for (const auto& samples : result.per_thread) {
    for (int k = 0; k < trials; ++k) {
      auto& worst = result.per_trial[static_cast<std::size_t>(k)];
      worst = std::max(worst, samples[static_cast<std::size_t>(k)]);
    }
  }
  return result;
}

}  // namespace rtpar::bench
