// loop_start.cpp — OpenMP 5.0's generic loop starts (GOMP_loop_start, GOMP_loop_ordered_start)
// and their extras: the team-shared scratch block (`mem`, used by GCC for `scan`) and workshare
// task reductions (`reductions`, for `for reduction(task, ...)`).
//
// `sched` is 0 runtime, 1 static, 2 dynamic, 3 guided, 4 auto, possibly ORed with the monotonic
// bit. `istart == NULL` only sets the work share up (GCC computes a static loop inline and needs
// only the extras): it returns true.
//
// Scratch: *mem holds the block's size on entry. The first thread to reach the construct makes
// the work share's grow-only block at least that large and zeroes it; every thread gets its
// address in *mem. A slot's block is reused by later constructs, so steady state allocates
// nothing. The block and its zeroing are published with the work share (work_share.cpp (2)).
#include <cstring>
#include <new>

#include "omp/runtime.hpp"

namespace rtpar::omp {

// workshare_task_reduction_register registers a worksharing construct's task reductions for the
// calling thread (task_reduction.cpp defines it). Every member calls it after
// entering the work share; ts.ws->loop.task_reductions holds the first member's array (the
// initialiser's call sees its own array there). Weak: without the module, task reductions on
// worksharing constructs are not registered.
void workshare_task_reduction_register(ThreadState& ts, std::uintptr_t* reductions)
    __attribute__((weak));

namespace {

// scratch_reserve makes w's scratch block at least `bytes` long and zeroes `bytes` of it.
void scratch_reserve(WorkShare& w, std::size_t bytes) {
  if (bytes > w.scratch_bytes) {
    if (w.scratch != nullptr) ::operator delete (w.scratch, std::align_val_t{64});
    const std::size_t cap = bytes < 256 ? 256 : bytes;
    w.scratch = ::operator new (cap, std::align_val_t{64});
    w.scratch_bytes = cap;
  }
  if (bytes != 0) std::memset(w.scratch, 0, bytes);
}

}  // namespace

void loop_extras(ThreadState& ts, bool first, std::uintptr_t* reductions, void** mem) {
  WorkShare& w = *ts.ws;
  if (reductions != nullptr) {
    if (first) w.loop.task_reductions = reductions;
    if (workshare_task_reduction_register != nullptr) {
      workshare_task_reduction_register(ts, reductions);
    }
  }
  if (mem != nullptr) {
    if (first) scratch_reserve(w, reinterpret_cast<std::uintptr_t>(*mem));
    *mem = w.scratch;
  }
}

namespace {

// start_generic is GOMP_loop_start / GOMP_loop_ordered_start.
bool start_generic(long start, long end, long incr, long sched, long chunk, long* istart,
                   long* iend, std::uintptr_t* reductions, void** mem, bool ordered) {
  ThreadState& ts = self();
  loop_begin(ts, static_cast<std::uint64_t>(start), static_cast<std::uint64_t>(end),
             static_cast<std::uint64_t>(incr), trip_long(start, end, incr),
             sched_resolve(ts, static_cast<unsigned>(sched), chunk), ordered, reductions, mem);
  if (istart == nullptr) return true;
  return loop_next_long(ts, istart, iend);
}

}  // namespace

// GOMP_loop_start begins a loop with a schedule chosen at run time by the compiler's `sched`.
RTPAR_OMP_EXPORT bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk,
                                      long* istart, long* iend, std::uintptr_t* reductions,
                                      void** mem) {
  return start_generic(start, end, incr, sched, chunk, istart, iend, reductions, mem, false);
}

// GOMP_loop_ordered_start is GOMP_loop_start for an `ordered` loop.
RTPAR_OMP_EXPORT bool GOMP_loop_ordered_start(long start, long end, long incr, long sched,
                                              long chunk, long* istart, long* iend,
                                              std::uintptr_t* reductions, void** mem) {
  return start_generic(start, end, incr, sched, chunk, istart, iend, reductions, mem, true);
}

}  // namespace rtpar::omp
