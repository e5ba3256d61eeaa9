// release_forecast.hpp — when the first fork of the next job will come, for self-timed releases.
//
// A periodic job does not always fork at its release: a sequential prefix (decode, sensor read)
// delays its first parallel region by a similar amount every job. A worker that wakes at the
// release would spin through that prefix or, past its window, sleep and cost the fork a futex
// wake-up. ReleaseForecast learns the prefix: the forecast of job k+1's first fork is its release
// plus the smallest first-fork offset of the last kHistory jobs — the smallest, so that workers are
// early (they spin the difference) rather than late (a wake-up).
//
// The offset is measured from the job's *start* (when the master, awake, announced the next
// release), not from its release: the master's own timer wake-up latency is not part of it. A
// worker's timer is as late as the master's (same kind of wake-up), so aiming both at the release
// plus the prefix makes them arrive together; adding the master's latency to the forecast would
// make the worker pay it twice and arrive after the fork (measured: 1.7 µs → 32 µs p50 region).
//
// Master-only: no atomics. The owner publishes forecast() to its workers as a hint (Team: the
// worker timers; steal::Pool: the idle timers).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace rtpar::detail {

// ReleaseForecast predicts the first fork of the next job from its release and past offsets.
class ReleaseForecast {
 public:
  // kHistory is how many past jobs' offsets the minimum is taken over.
  static constexpr std::size_t kHistory = 16;

  // expect records the release of the next job (absolute ns; 0: none) at `now`, the start of the
  // job now running, whose first fork will be measured from `now`.
  void expect(std::int64_t release, std::int64_t now) noexcept {
    pending_ = true;
    job_start_ = now;
    upcoming_ = release;
  }

  // pending says whether the current job has not forked yet (its first fork is to be measured).
  [[nodiscard]] bool pending() const noexcept { return pending_; }

  // first_fork records the current job's first fork at `now` (call only while pending()).
  void first_fork(std::int64_t now) noexcept {
    pending_ = false;
    const std::int64_t offset = now > job_start_ ? now - job_start_ : 0;
    offsets_[next_] = offset;
    next_ = (next_ + 1) % kHistory;
    if (count_ < kHistory) ++count_;
  }

  // forecast is the expected time of the next job's first fork (0 when no release is expected).
  [[nodiscard]] std::int64_t forecast() const noexcept {
    if (upcoming_ == 0) return 0;
    std::int64_t least = 0;
    for (std::size_t i = 0; i < count_; ++i) {
      if (i == 0 || offsets_[i] < least) least = offsets_[i];
    }
    return upcoming_ + least;
  }

 private:
  std::int64_t job_start_ = 0;  // when the job now running started (its expect call)
  std::int64_t upcoming_ = 0;   // release of the next job (0: none expected)
  bool pending_ = false;        // the current job has not forked yet
  std::array<std::int64_t, kHistory> offsets_{};
  std::size_t next_ = 0;   // ring index of the next offset
  std::size_t count_ = 0;  // offsets recorded, up to kHistory
};

}  // namespace rtpar::detail
