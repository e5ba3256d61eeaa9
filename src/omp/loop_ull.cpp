// loop_ull.cpp — the GOMP_loop_ull_* entry points: worksharing loops whose induction variable is
// unsigned long long (or too wide for long). They take `up` (the loop counts upwards) and unsigned
// bounds; a downward loop's stride is the two's complement of its magnitude. The dispatch is
// loop.cpp's, in the logical iteration space, so ranges near ULLONG_MAX need no special case.
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// ull is the ull family's unsigned long long.
using ull = unsigned long long;

// ull_chunk converts an unsigned chunk to sched_resolve's signed convention (0: default; a chunk
// beyond LLONG_MAX is as good as "all iterations").
std::int64_t ull_chunk(ull chunk) noexcept {
  return chunk > static_cast<ull>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(chunk);
}

// bounds_ull stores the program's bounds of logical chunk [a, b) of the caller's loop.
void bounds_ull(ThreadState& ts, std::uint64_t a, std::uint64_t b, ull* istart, ull* iend) {
  std::uint64_t s = 0, e = 0;
  loop_bounds(ts.ws->loop, a, b, s, e);
  *istart = s;
  *iend = e;
}

// start_ull begins an ull-family loop and hands out the caller's first chunk.
bool start_ull(bool up, ull start, ull end, ull incr, LoopSched sched, bool ordered, ull* istart,
               ull* iend) {
  ThreadState& ts = self();
  loop_begin(ts, start, end, incr, trip_ull(up, start, end, incr), sched, ordered);
  std::uint64_t a = 0, b = 0;
  if (!loop_next(ts, a, b)) return false;
  bounds_ull(ts, a, b, istart, iend);
  return true;
}

// next_ull hands out the caller's next chunk of its current ull-family loop.
bool next_ull(ull* istart, ull* iend) {
  ThreadState& ts = self();
  std::uint64_t a = 0, b = 0;
  if (!loop_next(ts, a, b)) return false;
  bounds_ull(ts, a, b, istart, iend);
  return true;
}

}  // namespace

// GOMP_LOOP_ULL_START defines GOMP_loop_ull_<name>_start for schedule `kind`.
#define GOMP_LOOP_ULL_START(name, kind, ordered)                                                   \
  RTPAR_OMP_EXPORT bool GOMP_loop_ull_##name##_start(bool up, ull start, ull end, ull incr,        \
                                                     ull chunk, ull* istart, ull* iend) {          \
    return start_ull(up, start, end, incr, sched_resolve(self(), kind, ull_chunk(chunk)), ordered, \
                     istart, iend);                                                                \
  }
// GOMP_LOOP_ULL_RUNTIME_START defines GOMP_loop_ull_<name>_start for schedule(runtime).
#define GOMP_LOOP_ULL_RUNTIME_START(name, ordered)                                              \
  RTPAR_OMP_EXPORT bool GOMP_loop_ull_##name##_start(bool up, ull start, ull end, ull incr,     \
                                                     ull* istart, ull* iend) {                  \
    return start_ull(up, start, end, incr, sched_resolve(self(), 0, 0), ordered, istart, iend); \
  }
// GOMP_LOOP_ULL_NEXT defines GOMP_loop_ull_<name>_next.
#define GOMP_LOOP_ULL_NEXT(name)                                              \
  RTPAR_OMP_EXPORT bool GOMP_loop_ull_##name##_next(ull* istart, ull* iend) { \
    return next_ull(istart, iend);                                            \
  }

GOMP_LOOP_ULL_START(static, kSchedStatic, false)
GOMP_LOOP_ULL_START(dynamic, kSchedDynamic, false)
GOMP_LOOP_ULL_START(guided, kSchedGuided, false)
GOMP_LOOP_ULL_START(nonmonotonic_dynamic, kSchedDynamic, false)
GOMP_LOOP_ULL_START(nonmonotonic_guided, kSchedGuided, false)
GOMP_LOOP_ULL_RUNTIME_START(runtime, false)
GOMP_LOOP_ULL_RUNTIME_START(nonmonotonic_runtime, false)
GOMP_LOOP_ULL_RUNTIME_START(maybe_nonmonotonic_runtime, false)
GOMP_LOOP_ULL_START(ordered_static, kSchedStatic, true)
GOMP_LOOP_ULL_START(ordered_dynamic, kSchedDynamic, true)
GOMP_LOOP_ULL_START(ordered_guided, kSchedGuided, true)
GOMP_LOOP_ULL_RUNTIME_START(ordered_runtime, true)

GOMP_LOOP_ULL_NEXT(static)
GOMP_LOOP_ULL_NEXT(dynamic)
GOMP_LOOP_ULL_NEXT(guided)
GOMP_LOOP_ULL_NEXT(nonmonotonic_dynamic)
GOMP_LOOP_ULL_NEXT(nonmonotonic_guided)
GOMP_LOOP_ULL_NEXT(runtime)
GOMP_LOOP_ULL_NEXT(nonmonotonic_runtime)
GOMP_LOOP_ULL_NEXT(maybe_nonmonotonic_runtime)
GOMP_LOOP_ULL_NEXT(ordered_static)
GOMP_LOOP_ULL_NEXT(ordered_dynamic)
GOMP_LOOP_ULL_NEXT(ordered_guided)
GOMP_LOOP_ULL_NEXT(ordered_runtime)

// GOMP_loop_ull_start is OpenMP 5.0's generic ull loop start (see GOMP_loop_start).
RTPAR_OMP_EXPORT bool GOMP_loop_ull_start(bool up, ull start, ull end, ull incr, long sched,
                                          ull chunk, ull* istart, ull* iend,
                                          std::uintptr_t* reductions, void** mem) {
  ThreadState& ts = self();
  loop_begin(ts, start, end, incr, trip_ull(up, start, end, incr),
             sched_resolve(ts, static_cast<unsigned>(sched), ull_chunk(chunk)), false, reductions,
             mem);
  if (istart == nullptr) return true;
  return next_ull(istart, iend);
}

// GOMP_loop_ull_ordered_start is GOMP_loop_ull_start for an `ordered` loop.
RTPAR_OMP_EXPORT bool GOMP_loop_ull_ordered_start(bool up, ull start, ull end, ull incr, long sched,
                                                  ull chunk, ull* istart, ull* iend,
                                                  std::uintptr_t* reductions, void** mem) {
  ThreadState& ts = self();
  loop_begin(ts, start, end, incr, trip_ull(up, start, end, incr),
             sched_resolve(ts, static_cast<unsigned>(sched), ull_chunk(chunk)), true, reductions,
             mem);
  if (istart == nullptr) return true;
  return next_ull(istart, iend);
}

}  // namespace rtpar::omp
