// loop_state.hpp — the state of a worksharing loop (or sections) in a work share, and each
// thread's cursor into it. Owned by H-loops; the core embeds LoopState in every WorkShare and
// LoopCursor in every ThreadState, and calls loop_state_reset when a work share is recycled.
#pragma once

#include <atomic>
#include <cstdint>

namespace rtpar::omp {

// LoopState is the shared iteration state of one loop instance (initialised by the first thread
// that enters the work share, before the core publishes it to the others).
struct LoopState {
  long lb = 0;       // first iteration
  long ub = 0;       // end (exclusive)
  long incr = 1;     // stride (may be negative)
  long chunk = 1;    // chunk size
  int kind = 0;      // SchedKind
  alignas(64) std::atomic<long> next{0};  // next iteration to hand out (dynamic/guided)
};

// LoopCursor is one thread's position in its current loop (legacy static loops, ordered).
struct LoopCursor {
  long static_trip = 0;  // chunks this thread took so far in a runtime-static loop
};

// loop_state_reset clears a work share's loop state when its slot is reused (CORE).
inline void loop_state_reset(LoopState& s) noexcept {
  s.lb = s.ub = 0;
  s.incr = 1;
  s.chunk = 1;
  s.kind = 0;
  s.next.store(0, std::memory_order_relaxed);
}

}  // namespace rtpar::omp
