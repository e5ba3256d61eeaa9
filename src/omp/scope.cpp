// scope.cpp — GOMP_scope_start: the `scope` construct with task reductions (OpenMP 5.1 §2.9).
//
// GCC emits it only for `scope reduction(task, ...)`; the scope then ends with
// GOMP_workshare_task_reduction_unregister and a barrier, exactly as a worksharing loop with task
// reductions does. So a scope starts as a worksharing loop of no iterations carrying the
// reductions: every member enters the same work share, the first registers the reductions for
// the team, and the others use its registration (loop_start.cpp's GOMP_loop_start).
#include <cstdint>

#include "omp/runtime.hpp"

// GOMP_loop_start (loop_start.cpp) is weak here so that this file links on its own.
extern "C" bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk,
                                long* istart, long* iend, std::uintptr_t* reductions, void** mem)
    __attribute__((weak));

namespace rtpar::omp {

// GOMP_scope_start begins a scope whose task reductions are `reductions` (GCC's descriptor).
RTPAR_OMP_EXPORT void GOMP_scope_start(std::uintptr_t* reductions) {
  if (GOMP_loop_start == nullptr) return;
  long istart = 0, iend = 0;
  // sched 1 = static; the loop [0, 0) has no iteration, only the work share and its reductions.
  GOMP_loop_start(0, 0, 1, 1, 0, &istart, &iend, reductions, nullptr);
}

}  // namespace rtpar::omp
