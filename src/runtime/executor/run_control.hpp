// run_control.hpp — the few words shared by the executor's control thread and the task masters.
#pragma once

#include <atomic>
#include <cstdint>

namespace rtpar::detail {

class EdfBand;

// RunControl::go values (futex word: masters sleep on it while it is kGoWaiting).
inline constexpr std::uint32_t kGoWaiting = 0;   // start_ns/end_ns not published yet
inline constexpr std::uint32_t kGoReleased = 1;  // start_ns/end_ns published: release jobs
// RunControl::stop values (futex word: masters sleep on it until a release while kStopClear).
inline constexpr std::uint32_t kStopClear = 0;      // keep releasing
inline constexpr std::uint32_t kStopRequested = 1;  // release nothing more

// RunControl coordinates one run. Memory-ordering invariants (docs/internals/executor.md, cited
// as "RunControl (n)" on the lines):
//  (1) go: the control thread writes start_ns and end_ns (plain), then stores go = kGoReleased
//      (release) and wakes the masters; a master's acquire load of go == kGoReleased makes both
//      times visible. go only goes kGoWaiting → kGoReleased.
//  (2) stop: only goes kStopClear → kStopRequested (release store, acquire loads) and carries no
//      data: a master sleeping on it until its next release returns at once (futex_wait_until
//      with expected kStopClear), a running one sees it before its next release. Relaxed loads
//      could not miss it for long; acquire keeps the reasoning simple.
//  (3) what the masters write (records, counters' final values, failures) is read after their
//      thread is joined, which synchronizes; nothing flows back through go or stop.
struct RunControl {
  alignas(64) std::atomic<std::uint32_t> go{kGoWaiting};
  alignas(64) std::atomic<std::uint32_t> stop{kStopClear};
  std::int64_t start_ns = 0;  // first possible release (t0)
  std::int64_t end_ns = 0;    // no release at or after this time
  EdfBand* edf = nullptr;  // EDF ranking of partitioned EDF tasks (null when none or best effort)
};

}  // namespace rtpar::detail
