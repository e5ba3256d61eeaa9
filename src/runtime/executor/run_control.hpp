// run_control.hpp — the few words shared by the executor's control thread and the task masters.
#pragma once

#include <atomic>
#include <cstdint>

namespace rtpar::detail {

class EdfBand;

// RunControl coordinates one run.
//
// Protocol: the control thread writes start_ns and end_ns (plain), then stores go = 1 (release)
// and wakes the masters; a master's acquire load of go == 1 makes both times visible. To stop
// early, the control thread stores stop = 1 (release) and wakes `stop`: a master sleeping on
// `stop` until its next release returns at once (futex_wait_until on stop with expected 0), and a
// master that is running a job sees the flag before its next release. The flag only ever goes
// 0 → 1, so a relaxed re-check could not miss it for long, but acquire keeps the reasoning simple.
struct RunControl {
  alignas(64) std::atomic<std::uint32_t> go{0};
  alignas(64) std::atomic<std::uint32_t> stop{0};
  std::int64_t start_ns = 0;  // first possible release (t0)
  std::int64_t end_ns = 0;    // no release at or after this time
  EdfBand* edf = nullptr;     // EDF ranking of partitioned EDF tasks (null when none or best effort)
};

}  // namespace rtpar::detail
