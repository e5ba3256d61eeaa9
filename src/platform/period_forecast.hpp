// period_forecast.hpp — forecasting the next event of a periodic sequence, for self-timed releases
// of code that does not declare its period (an unchanged OpenMP program whose master sleeps until
// each release, then opens a parallel region).
//
// The events are the region starts t_k = r_k + λ_k: absolute releases r_k = r_0 + k·T plus a
// wake-up latency λ_k. An interval is T + λ_{k+1} − λ_k, so the median of the last kHistory
// intervals is a robust estimate of T (one late wake-up makes one long and one short interval, both
// outside the middle). The sequence counts as periodic when at least kHistory − 2 of those
// intervals lie within max(kMinTolerance, T/8) of the median, else the forecast is 0 (none: the
// workers sleep until woken, as without a forecast). The forecast is the earliest projection of
// the recent events onto the next one, min over j of t_{k−j} + (j+1)·T̂: projecting only the last
// event would carry its wake-up latency λ_k into the forecast, and a worker aiming there would
// arrive after a master that woke faster; the earliest projection tracks the release phase plus
// the smallest recent λ.
//
// One owner (no atomics); observe costs a sort of 8 integers.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace rtpar::detail {

// PeriodForecast forecasts the next event of a periodic sequence from the last intervals.
class PeriodForecast {
 public:
  // kHistory is how many past intervals the estimate uses.
  static constexpr std::size_t kHistory = 8;
  // kMinTolerance (ns) is the least deviation from the median an interval may have and still count
  // as periodic: timer wake-ups on a VM scatter by tens of microseconds.
  static constexpr std::int64_t kMinTolerance = 50'000;

  // observe records an event at `now` (ns, non-decreasing) and returns the forecast of the next
  // one, or 0 when the last kHistory intervals are not periodic (or not yet known).
  std::int64_t observe(std::int64_t now) noexcept {
    if (last_ != 0) {
      intervals_[next_] = now - last_;
      next_ = (next_ + 1) % kHistory;
      if (count_ < kHistory) ++count_;
    }
    last_ = now;
    if (count_ < kHistory) return 0;
    std::array<std::int64_t, kHistory> sorted = intervals_;
    std::sort(sorted.begin(), sorted.end());
    const std::int64_t median =
        sorted[kHistory / 2 - 1] + (sorted[kHistory / 2] - sorted[kHistory / 2 - 1]) / 2;
    if (median <= 0) return 0;
    const std::int64_t tolerance = std::max(kMinTolerance, median / 8);
    std::size_t close = 0;
    for (const std::int64_t x : sorted) close += x >= median - tolerance && x <= median + tolerance;
    if (close + 2 < kHistory) return 0;
    // Walk back from the newest interval: t_{k−j} = now − (sum of the j newest intervals).
    std::int64_t best = now + median, back = 0;
    for (std::size_t j = 1; j <= kHistory; ++j) {
      back += intervals_[(next_ + kHistory - j) % kHistory];
      best = std::min(best, now - back + static_cast<std::int64_t>(j + 1) * median);
    }
    return best;
  }

 private:
  std::int64_t last_ = 0;  // the last event (0: none yet)
  std::array<std::int64_t, kHistory> intervals_{};
  std::size_t next_ = 0;   // ring index of the next interval
  std::size_t count_ = 0;  // intervals recorded, up to kHistory
};

}  // namespace rtpar::detail
