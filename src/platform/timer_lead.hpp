// timer_lead.hpp — how early a self-timed worker sets its own release timer.
//
// A worker that sleeps on its own absolute timer for a release (Team::expect_release,
// steal::Pool::expect_release) wakes up `lateness` after the deadline: the timer interrupt, the
// exit from the idle state and the context switch. On a quiet bare-metal core that is a few µs; on
// this project's 2-vCPU VM it is 25–120 µs (p50–p99) unless a PM QoS request keeps the cores out
// of the halt state (platform/cpu_latency.hpp). A fixed lead shorter than that makes the worker
// arrive after the master's fork (which then costs a futex wake-up, the very thing the
// self-timed release saves); a fixed lead much longer burns CPU spinning at SCHED_FIFO on every
// job.
//
// TimerLead learns it per worker: lead = base + the largest lateness of the worker's own last
// kHistory timer wake-ups, capped at `cap`. The largest of 16 is about the p94 of the wake-up
// distribution, so the worker is in place before the release on ~15 of 16 jobs and spins for
// about the spread (p94 − actual) otherwise. The master's own wake-up is just as late, so this
// is pessimistic by the master's lateness: the base lead covers the case where the master wakes
// faster than the worker, the adaptive part the worker's own tail. Owned by one worker thread:
// no atomics.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace rtpar::detail {

// TimerLead is one self-timed worker's lead: its configured base plus its recent timer lateness.
class TimerLead {
 public:
  // kHistory is how many of the worker's last timer wake-ups the lateness maximum covers.
  static constexpr std::size_t kHistory = 16;

  // TimerLead starts at `base` ns and never exceeds `cap` ns (cap < base is read as cap = base).
  TimerLead(std::int64_t base, std::int64_t cap) noexcept
      : base_(std::max<std::int64_t>(base, 0)), cap_(std::max(cap, base_)) {}

  // lead is how long before the expected release the worker's timer should fire (ns).
  [[nodiscard]] std::int64_t lead() const noexcept { return std::min(base_ + worst_, cap_); }

  // observe records one timer wake-up that ended on its deadline: `lateness` ns after it (a
  // negative value — a wake-up by a fork or a signal before the deadline — is not a timer sample
  // and is ignored).
  void observe(std::int64_t lateness) noexcept {
    if (lateness < 0) return;
    samples_[next_] = lateness;
    next_ = (next_ + 1) % kHistory;
    if (count_ < kHistory) ++count_;
    worst_ = *std::max_element(samples_.begin(), samples_.begin() + static_cast<long>(count_));
  }

 private:
  std::int64_t base_;  // the configured release_lead
  std::int64_t cap_;   // the configured release_window: never spin longer before the release
  std::array<std::int64_t, kHistory> samples_{};
  std::size_t next_ = 0;    // ring index of the next sample
  std::size_t count_ = 0;   // samples recorded, up to kHistory
  std::int64_t worst_ = 0;  // max of the recorded samples
};

}  // namespace rtpar::detail
