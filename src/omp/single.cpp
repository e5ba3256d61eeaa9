// single.cpp — `single` and `single copyprivate` (OpenMP 5.0 §2.8.3, §2.19.6.2).
//
// GOMP_single_start: each member counts the single constructs it encountered; the team counts
// the instances claimed. The member that moves the team count from its own count i to i+1 is the
// first at instance i and executes it (OpenMP does not say which thread: the first is the one
// that waits least). A member that is not first finds the team count already past i.
//
// copyprivate uses a work share: the first member runs the block and leaves its pointer in the
// slot; a barrier publishes it; the others read it and leave; GCC emits a second barrier after
// the copies, which keeps the executing thread's variables alive until everyone copied.
#include "omp/runtime.hpp"

namespace rtpar::omp {

bool single_claim(ThreadState& ts) noexcept {
  if (ts.team->nthreads == 1) return true;
  std::uint64_t expected = ts.single_count++;
  // relaxed: the CAS only elects one member (one RMW order on the word); the construct's data
  // is published by the barrier GCC emits after it (or by the program, with nowait).
  return ts.team->single_next.compare_exchange_strong(expected, expected + 1,
                                                      std::memory_order_relaxed);
}

RTPAR_OMP_EXPORT bool GOMP_single_start() { return single_claim(self()); }

RTPAR_OMP_EXPORT void* GOMP_single_copy_start() {
  ThreadState& ts = self();
  if (ws_enter(ts)) {
    ws_publish(ts);
    return nullptr;  // this member executes the block and calls GOMP_single_copy_end
  }
  team_barrier(ts);  // pairs with the barrier in GOMP_single_copy_end: the pointer is set
  void* data = ts.ws->copyprivate;
  ws_leave(ts);
  return data;
}

RTPAR_OMP_EXPORT void GOMP_single_copy_end(void* data) {
  ThreadState& ts = self();
  WorkShare* w = ts.ws;
  w->copyprivate = data;  // plain: published by the barrier's release/acquire (barrier.cpp (1))
  team_barrier(ts);
  ws_leave(ts);
}

}  // namespace rtpar::omp
