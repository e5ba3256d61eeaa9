// supply_loss.cpp — measure_supply_loss: the CPU supply a thread that wants its core loses, per
// window length, for `rtpar calibrate --supply` (rtpar/tools/calibrate.hpp; docs/analysis.md
// "Supply loss").
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <thread>
#include <vector>

#include "platform/rt_thread.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/calibrate.hpp"

namespace rtpar {

namespace {

// Loss is one interval [start, start + length) during which the thread did not run.
struct Loss {
  std::int64_t start = 0;
  std::int64_t length = 0;
};

// window_max is the largest loss inside any window [s, s + w) ⊆ [begin, end) over `losses`
// (ordered, disjoint, inside [begin, end)). The loss in a window is piecewise linear in its
// position, so its maximum is at a window that starts at a loss's start or ends at a loss's end
// (clamped into [begin, end)); both families are evaluated, each with prefix sums.
std::int64_t window_max(const std::vector<Loss>& losses, std::int64_t begin, std::int64_t end,
                        std::int64_t w) {
  const std::size_t n = losses.size();
  std::vector<std::int64_t> prefix(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + losses[i].length;
  // lost_in is the loss overlapping [s, e).
  const auto lost_in = [&](std::int64_t s, std::int64_t e) {
    // First loss ending after s, and first loss starting at or after e.
    const auto first = std::partition_point(losses.begin(), losses.end(),
                                            [s](const Loss& l) { return l.start + l.length <= s; });
    const auto last =
        std::partition_point(first, losses.end(), [e](const Loss& l) { return l.start < e; });
    if (first == last) return std::int64_t{0};
    const auto i = static_cast<std::size_t>(first - losses.begin());
    const auto k = static_cast<std::size_t>(last - losses.begin());
    std::int64_t sum = prefix[k] - prefix[i];
    sum -= std::max<std::int64_t>(0, s - losses[i].start);  // the first may start before s
    const Loss& tail = losses[k - 1];
    sum -= std::max<std::int64_t>(0, tail.start + tail.length - e);  // the last may end after e
    return sum;
  };
  std::int64_t best = 0;
  for (const Loss& l : losses) {
    const std::int64_t s = std::max(begin, std::min(l.start, end - w));
    best = std::max(best, lost_in(s, s + w));
    const std::int64_t e = std::min(end, std::max(l.start + l.length, begin + w));
    best = std::max(best, lost_in(e - w, e));
  }
  return best;
}

// measure_on is one thread's measurement: the largest loss per window over its bursts.
void measure_on(const SupplyConfig& config, const ThreadConfig& where,
                std::vector<std::int64_t>& worst, std::int64_t& bursts) {
  detail::apply_to_current_thread(where);
  const std::int64_t burst = config.burst.count();
  const std::int64_t gap = config.gap.count();
  const std::int64_t stop = monotonic_now() + config.duration.count();
  std::vector<Loss> losses;
  losses.reserve(4096);
  // Bursts start on a grid of 2·burst from a round start, so threads on different CPUs measure
  // at the same instants (a host that stalls both virtual CPUs at once is seen by both).
  std::int64_t at = (monotonic_now() / burst + 2) * burst;
  while (at + burst <= stop) {
    const timespec ts{static_cast<time_t>(at / 1'000'000'000),
                      static_cast<long>(at % 1'000'000'000)};
    // Only a signal interrupts an absolute sleep (EINTR): sleep again until the instant.
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
    losses.clear();
    std::int64_t prev = monotonic_now();
    // The wake-up's lateness is supply lost at the window's start (a release meets it too).
    if (prev - at > gap) losses.push_back(Loss{at, prev - at});
    const std::int64_t end = at + burst;
    while (prev < end) {
      const std::int64_t now = monotonic_now();
      if (now - prev > gap) losses.push_back(Loss{prev, now - prev});
      prev = now;
    }
    // A loss running past the burst's end is cut there: the window ends at `end`.
    if (!losses.empty() && losses.back().start + losses.back().length > end) {
      losses.back().length = end - losses.back().start;
    }
    for (std::size_t i = 0; i < config.windows.size(); ++i) {
      worst[i] = std::max(worst[i], window_max(losses, at, end, config.windows[i].count()));
    }
    ++bursts;
    at += 2 * burst;
  }
}

}  // namespace

std::vector<SupplyLoss> measure_supply_loss(const SupplyConfig& config) {
  if (config.threads.empty() || config.burst.count() <= 0 || config.gap.count() < 0) {
    throw std::invalid_argument("measure_supply_loss: needs threads, burst > 0 and gap >= 0");
  }
  std::vector<Duration> windows = config.windows;
  std::sort(windows.begin(), windows.end());
  windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
  for (const Duration w : windows) {
    if (w.count() <= 0 || w > config.burst) {
      throw std::invalid_argument("measure_supply_loss: every window must be in (0, burst]");
    }
  }
  SupplyConfig sorted = config;
  sorted.windows = windows;
  std::vector<std::vector<std::int64_t>> worst(config.threads.size(),
                                               std::vector<std::int64_t>(windows.size(), 0));
  std::vector<std::int64_t> bursts(config.threads.size(), 0);
  std::vector<std::exception_ptr> failed(config.threads.size());
  std::vector<std::thread> threads;
  threads.reserve(config.threads.size());
  for (std::size_t t = 0; t < config.threads.size(); ++t) {
    threads.emplace_back([&, t] {
      try {
        measure_on(sorted, config.threads[t], worst[t], bursts[t]);
      } catch (...) {
        failed[t] = std::current_exception();  // e.g. SCHED_FIFO refused: rethrown below
      }
      detail::leave_real_time();  // the thread's teardown runs at SCHED_OTHER (rt_thread.hpp)
    });
  }
  for (std::thread& th : threads) th.join();
  for (const std::exception_ptr& e : failed) {
    if (e) std::rethrow_exception(e);
  }
  // No burst fitted in the duration: nothing was measured, which is not "no loss".
  if (std::all_of(bursts.begin(), bursts.end(), [](std::int64_t b) { return b == 0; })) return {};
  std::vector<SupplyLoss> out;
  for (std::size_t i = 0; i < windows.size(); ++i) {
    SupplyLoss s;
    s.window_ns = windows[i].count();
    for (std::size_t t = 0; t < config.threads.size(); ++t) {
      s.loss_ns = std::max(s.loss_ns, worst[t][i]);
      s.samples += bursts[t];
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace rtpar
