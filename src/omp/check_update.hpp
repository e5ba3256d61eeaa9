// check_update.hpp — store a team field only when its value changes.
//
// The master sets its team up before every region (parallel.cpp prepare, placement.cpp, the
// implicit tasks). A region run again with the same settings — the common case: a loop of
// `parallel` constructs — writes the same values, and even a store of an unchanged value takes
// the cache line away from every worker that read it, so each worker misses on it again when it
// enters the region: one cross-core transfer per line (60-300 ns on this VM), on the path the
// master then waits for at the region's barrier. Loading first keeps the line shared. LLVM's libomp
// does the same in __kmp_fork_call (its KMP_CHECK_UPDATE).
#pragma once

#include <atomic>

namespace rtpar::omp {

// check_update stores `value` into `field` unless it already holds it.
template <class T>
inline void check_update(T& field, const T& value) noexcept {
  if (!(field == value)) field = value;
}

// check_update (atomic) is the same for an atomic field. relaxed, both: only the master writes
// these between regions, and the fork publishes them (team.cpp invariant 1).
template <class T>
inline void check_update(std::atomic<T>& field, T value) noexcept {
  if (field.load(std::memory_order_relaxed) != value) {
    field.store(value, std::memory_order_relaxed);
  }
}

}  // namespace rtpar::omp
