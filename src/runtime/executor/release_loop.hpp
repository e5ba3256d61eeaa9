// release_loop.hpp — the periodic release arithmetic and release sleeps of one task, shared by
// TaskRunner (one master releases every job) and StrandRunner (the closer of a job publishes the
// next; every member sleeps to it on its own core).
#pragma once

#include <algorithm>
#include <cstdint>

#include "rtpar/taskset.hpp"
#include "runtime/executor/run_control.hpp"

namespace rtpar::detail {

// ReleaseLoop is job k's release time t0 + phase + k·T, the end of the run, the overrun policy and
// the count of skipped releases. It reads RunControl's start_ns/end_ns at each call, so it may be
// built before the control thread sets them (use it only after acquiring control.go ==
// kGoReleased). The fast path allocates nothing and takes no lock.
class ReleaseLoop {
 public:
  ReleaseLoop(const TaskSpec& task, RunControl& control) noexcept
      : task_(task), control_(control) {}

  // release is the absolute CLOCK_MONOTONIC release time of job k (ns), computed from t0 each
  // time, never accumulated, so it does not drift.
  [[nodiscard]] std::int64_t release(std::int64_t k) const noexcept {
    return control_.start_ns + task_.phase.count() + k * task_.period.count();
  }
  // due says whether job k may still be released (its release is before the end of the run).
  [[nodiscard]] bool due(std::int64_t k) const noexcept { return release(k) < control_.end_ns; }
  // next is the index of the job to release after job k finished at `finish`, applying the
  // overrun policy: `queue` keeps every release (k + 1); `skip` drops, and counts in skipped(),
  // every release before `finish` (and before the end of the run).
  std::int64_t next(std::int64_t k, std::int64_t finish) noexcept {
    ++k;
    if (task_.overrun == OverrunPolicy::skip) {
      while (release(k) < finish && due(k)) {
        ++k;
        ++skipped_;
      }
    }
    return k;
  }
  // due_after counts the releases after job k that are before the end of the run and before
  // until_ns (a run that ended early — a crash, a stop signal — released nothing after it).
  [[nodiscard]] std::int64_t due_after(std::int64_t k, std::int64_t until_ns) const noexcept {
    const std::int64_t room = std::min(control_.end_ns, until_ns) - release(k + 1);
    return room <= 0 ? 0 : (room - 1) / task_.period.count() + 1;
  }
  // skipped counts the releases `skip` dropped. Written only by the thread that computes the next
  // release (one job after another), read after join.
  [[nodiscard]] std::int64_t skipped() const noexcept { return skipped_; }

  // sleep_until_release sleeps until the absolute time `when` (ns) or until the control thread
  // asks to stop, whichever is first; returns false when a stop was requested.
  [[nodiscard]] bool sleep_until_release(std::int64_t when) const noexcept;

 private:
  const TaskSpec& task_;
  RunControl& control_;
  std::int64_t skipped_ = 0;
};


}  // namespace rtpar::detail
