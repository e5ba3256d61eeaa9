// bench_steal_interference.cpp — the periodic interference threads of the multiprogrammed
// variant of `rtpar bench steal` (bench_steal_interference.hpp).
//
// Memory ordering: the only shared datum while the threads run is stop_, written once by the
// orchestrator (release) and polled by each thread (acquire) before each release; the per-thread
// counters are written by their thread only and read by the orchestrator after PinnedThread's
// destructor joined the thread (pthread_join synchronizes), so they need no atomics.
#include "driver/bench_steal_interference.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/clock.hpp"  // bench/common: the bench programs' clock
#include "common/pinned_thread.hpp"
#include "common/pinning.hpp"
#include "common/rt_throttle.hpp"

namespace rtpar::bench {

// Worker is one interference thread with the counters it fills.
struct Interference::Worker {
  std::vector<std::uint64_t> buffer;
  std::int64_t busy_ns = 0;
  std::int64_t releases = 0;
  std::int64_t max_late_ns = 0;
  std::int64_t stalls = 0;
  std::unique_ptr<rtpar_bench::PinnedThread> thread;  // last: joined first on destruction
};

namespace {

// kWordsPerCheck is how many buffer words are touched between two clock reads (one cache line
// each: ~a microsecond of work, so the busy time overshoots by at most that).
constexpr std::size_t kWordsPerCheck = 64;

// kWordStride is one 64-byte cache line in 8-byte words.
constexpr std::size_t kWordStride = 8;

}  // namespace

Interference::Interference(const InterferenceConfig& config) : config_(config) {
  const std::int64_t busy_ns =
      static_cast<std::int64_t>(config_.utilization * static_cast<double>(config_.period_ns));
  const std::int64_t stall_ns = rtpar_bench::stall_threshold_ns();
  stats_.stall_threshold_ns = stall_ns;
  const std::int64_t ncpu = static_cast<std::int64_t>(config_.cpus.size());
  start_ns_ = rtpar_bench::now_ns() + config_.period_ns;
  for (std::int64_t k = 0; k < ncpu; ++k) {
    auto w = std::make_unique<Worker>();
    w->buffer.assign(std::max<std::size_t>(config_.buffer_bytes / 8, kWordStride), 0);
    Worker* self = w.get();
    const std::int64_t first = start_ns_ + config_.period_ns * k / std::max<std::int64_t>(ncpu, 1);
    const std::int64_t period = config_.period_ns;
    const rtpar_bench::Placement where{config_.cpus[static_cast<std::size_t>(k)], true,
                                       config_.priority};
    workers_.push_back(std::move(w));
    // PinnedThread applies the placement before the thread's first instruction and throws if the
    // kernel refuses it; the threads already started are stopped by the destructor.
    try {
      self->thread = std::make_unique<rtpar_bench::PinnedThread>(
          where, [this, self, first, period, busy_ns, stall_ns] {
            std::size_t pos = 0;
            const std::size_t words = self->buffer.size();
            for (std::int64_t release = first; !stop_.load(std::memory_order_acquire);
                 release += period) {
              rtpar_bench::sleep_until_ns(release);
              const std::int64_t t0 = rtpar_bench::now_ns();
              const std::int64_t late = t0 - release;
              self->max_late_ns = std::max(self->max_late_ns, late);
              self->stalls += late >= stall_ns;
              ++self->releases;
              std::int64_t t = t0;
              while (t - t0 < busy_ns) {
                for (std::size_t i = 0; i < kWordsPerCheck; ++i) {
                  self->buffer[pos] += 1;
                  pos = pos + kWordStride < words ? pos + kWordStride : (pos + 1) % kWordStride;
                }
                t = rtpar_bench::now_ns();
              }
              self->busy_ns += t - t0;
              // A release that came due while this one ran late is skipped, not run back to back:
              // the load stays at `utilization` instead of catching up after a stall.
              while (release + period < t) release += period;
            }
          });
    } catch (...) {
      workers_.pop_back();
      stop();
      throw;
    }
  }
}

Interference::~Interference() { stop(); }

InterferenceStats Interference::stop() {
  if (stopped_) return stats_;
  stopped_ = true;
  stop_.store(true, std::memory_order_release);
  const std::int64_t end_ns = rtpar_bench::now_ns();
  double util_sum = 0.0;
  for (auto& w : workers_) {
    w->thread.reset();  // joins
    stats_.releases += w->releases;
    stats_.max_late_ns = std::max(stats_.max_late_ns, w->max_late_ns);
    stats_.stalls += w->stalls;
    const std::int64_t wall = end_ns - start_ns_;
    if (wall > 0) util_sum += static_cast<double>(w->busy_ns) / static_cast<double>(wall);
  }
  if (!workers_.empty()) stats_.utilization = util_sum / static_cast<double>(workers_.size());
  return stats_;
}

std::string probe_fifo(int priority) {
  try {
    rtpar_bench::PinnedThread t(rtpar_bench::Placement{-1, true, priority}, [] {});
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return {};
}

}  // namespace rtpar::bench
