// parallel_loop.cpp — combined `parallel for` (GOMP_parallel_loop_*) and the legacy
// GOMP_parallel_loop_*_start forms. The loop's work share is initialised before the team starts
// (a LoopInit passed to parallel_run / parallel_begin), because the outlined body calls only the
// loop's _next function and GOMP_loop_end_nowait. A runtime schedule is read from the
// encountering thread's run-sched-var.
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// run_parallel_loop runs fn(data) on a team whose first construct is the loop
// for (i = start; i < end; i += incr) with schedule `sched`; legacy: start the team only.
void run_parallel_loop(void (*fn)(void*), void* data, unsigned num_threads, long start, long end,
                       long incr, unsigned kind, long chunk, unsigned flags, bool legacy) {
  ThreadState& ts = self();
  const LoopSched sched = sched_resolve(ts, kind, chunk);
  const std::uint64_t n = trip_long(start, end, incr);
  auto init = [&](WorkShare& w, int nthreads) {
    loop_init(w, nthreads, static_cast<std::uint64_t>(start), static_cast<std::uint64_t>(end),
              static_cast<std::uint64_t>(incr), n, sched, false);
  };
  const LoopInit li(init);
  const int nthreads = resolve_nthreads(ts, num_threads);
  if (legacy) {
    parallel_begin(fn, data, nthreads, flags, &li);
  } else {
    parallel_run(fn, data, nthreads, flags, &li);
  }
}

}  // namespace

// GOMP_PARALLEL_LOOP defines GOMP_parallel_loop_<name> for schedule `kind` with a chunk.
#define GOMP_PARALLEL_LOOP(name, kind)                                                        \
  RTPAR_OMP_EXPORT void GOMP_parallel_loop_##name(void (*fn)(void*), void* data,              \
                                                  unsigned num_threads, long start, long end, \
                                                  long incr, long chunk, unsigned flags) {    \
    run_parallel_loop(fn, data, num_threads, start, end, incr, kind, chunk, flags, false);    \
  }
// GOMP_PARALLEL_LOOP_RUNTIME defines GOMP_parallel_loop_<name> for schedule(runtime).
#define GOMP_PARALLEL_LOOP_RUNTIME(name)                                                      \
  RTPAR_OMP_EXPORT void GOMP_parallel_loop_##name(void (*fn)(void*), void* data,              \
                                                  unsigned num_threads, long start, long end, \
                                                  long incr, unsigned flags) {                \
    run_parallel_loop(fn, data, num_threads, start, end, incr, 0, 0, flags, false);           \
  }
// GOMP_PARALLEL_LOOP_START defines the legacy GOMP_parallel_loop_<name>_start.
#define GOMP_PARALLEL_LOOP_START(name, kind)                                                 \
  RTPAR_OMP_EXPORT void GOMP_parallel_loop_##name##_start(void (*fn)(void*), void* data,     \
                                                          unsigned num_threads, long start,  \
                                                          long end, long incr, long chunk) { \
    run_parallel_loop(fn, data, num_threads, start, end, incr, kind, chunk, 0, true);        \
  }

GOMP_PARALLEL_LOOP(static, kSchedStatic)
GOMP_PARALLEL_LOOP(dynamic, kSchedDynamic)
GOMP_PARALLEL_LOOP(guided, kSchedGuided)
GOMP_PARALLEL_LOOP(nonmonotonic_dynamic, kSchedDynamic)
GOMP_PARALLEL_LOOP(nonmonotonic_guided, kSchedGuided)
GOMP_PARALLEL_LOOP_RUNTIME(runtime)
GOMP_PARALLEL_LOOP_RUNTIME(nonmonotonic_runtime)
GOMP_PARALLEL_LOOP_RUNTIME(maybe_nonmonotonic_runtime)

GOMP_PARALLEL_LOOP_START(static, kSchedStatic)
GOMP_PARALLEL_LOOP_START(dynamic, kSchedDynamic)
GOMP_PARALLEL_LOOP_START(guided, kSchedGuided)

// GOMP_parallel_loop_runtime_start is the legacy combined start for schedule(runtime).
RTPAR_OMP_EXPORT void GOMP_parallel_loop_runtime_start(void (*fn)(void*), void* data,
                                                       unsigned num_threads, long start, long end,
                                                       long incr) {
  run_parallel_loop(fn, data, num_threads, start, end, incr, 0, 0, 0, true);
}

}  // namespace rtpar::omp
