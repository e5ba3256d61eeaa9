// kmpc_loop.cpp — worksharing loops in LLVM's OpenMP ABI: __kmpc_for_static_init_* (static
// schedules, computed per thread with no shared state) and __kmpc_dispatch_*_* (every other
// schedule, on loop.cpp's dispatch in a work share), for the four induction types clang uses
// (4: int32, 4u: uint32, 8: int64, 8u: uint64).
//
// The ABI (LLVM's openmp runtime, kmp_sched.cpp and kmp_dispatch.cpp) gives inclusive bounds:
// [lb, ub] with stride st. static_init narrows the caller's bounds to its own block (unchunked)
// or first chunk (chunked, with the stride to the next one; clang clamps ub to the loop's end and
// steps by the stride itself), and says whether the caller runs the last iteration. dispatch_init
// starts a loop in the caller's next work share, and dispatch_next hands out chunks until it
// returns 0 — which is also when the caller leaves the work share (clang emits no end call; the
// loop's barrier, unless nowait, is a separate __kmpc_barrier). An ordered loop passes its token
// per chunk (ordered.cpp), so __kmpc_dispatch_fini_* (called after each ordered iteration) has
// nothing to do.
//
// Memory ordering: none here; loop.cpp partitions the iterations (relaxed RMWs) and work_share.cpp
// publishes the loop description.
#include <algorithm>
#include <type_traits>

#include "omp/kmpc.hpp"

namespace rtpar::omp::kmpc {

namespace {

// trip_of is the trip count of [lb, ub] with stride st (T: the induction type; 0 when empty).
template <class T, class ST>
std::uint64_t trip_of(T lb, T ub, ST st) noexcept {
  using U = std::make_unsigned_t<T>;
  if (st > 0) {
    if (ub < lb) return 0;
    return static_cast<std::uint64_t>(static_cast<U>(ub) - static_cast<U>(lb)) /
               static_cast<std::uint64_t>(st) +
           1;
  }
  if (st < 0) {
    if (lb < ub) return 0;
    return static_cast<std::uint64_t>(static_cast<U>(lb) - static_cast<U>(ub)) /
               (0 - static_cast<std::uint64_t>(static_cast<std::int64_t>(st))) +
           1;
  }
  return 0;
}

// add_scaled is base + k·st in T's modular arithmetic.
template <class T, class ST>
T add_scaled(T base, std::uint64_t k, ST st) noexcept {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(
      static_cast<U>(static_cast<std::uint64_t>(static_cast<U>(base)) +
                     k * static_cast<std::uint64_t>(static_cast<std::int64_t>(st))));
}

// balanced_block is the block of LLVM's kmp_sch_static_balanced_chunked (`schedule(simd:
// static)`): ⌈n / nth⌉ iterations rounded up to a multiple of the simd width (at most n).
std::uint64_t balanced_block(std::uint64_t n, std::uint64_t nth, std::uint64_t width) noexcept {
  const std::uint64_t q = n / nth + (n % nth != 0 ? 1 : 0);
  const std::uint64_t r = q % width;
  if (r == 0) return q;
  return width - r >= n - q ? n : q + (width - r);  // q ≤ n
}

// static_init narrows [*plower, *pupper] to the caller's part of a static loop (file comment).
// The `distribute` schedules (91, 92) divide among the teams of the enclosing `teams`
// (omp_get_team_num of omp_get_num_teams), the others among the threads of the caller's team.
template <class T, class ST>
void static_init(kmp_int32 schedtype, kmp_int32* plastiter, T* plower, T* pupper, ST* pstride,
                 ST incr, ST chunk) {
  const ThreadState& ts = self();
  const kmp_int32 kind = schedtype & kSchModifierMask;
  const bool distribute = kind == kDistributeStatic || kind == kDistributeStaticChunked;
  const Icvs& icv = ts.task->icv;
  const auto nth = static_cast<std::uint64_t>(distribute ? icv.num_teams : ts.team->nthreads);
  const auto tid = static_cast<std::uint64_t>(distribute ? icv.team_num : ts.tid);
  const std::uint64_t trip = trip_of(*plower, *pupper, incr);
  if (trip == 0) {  // nothing to run: the bounds stay crossed
    if (plastiter != nullptr) *plastiter = 0;
    *pstride = incr;
    return;
  }
  schedtype &= kSchModifierMask;
  const bool chunked = schedtype == kSchStaticChunked || schedtype == kDistributeStaticChunked;
  if (nth == 1) {
    if (plastiter != nullptr) *plastiter = 1;
    *pstride = static_cast<ST>(add_scaled(T{0}, trip, incr));
    return;
  }
  if (schedtype == kSchStaticBalancedChunked) {  // `schedule(simd: static)`: chunk is the width
    const std::uint64_t c =
        balanced_block(trip, nth, chunk > 0 ? static_cast<std::uint64_t>(chunk) : 1);
    std::uint64_t first = 0;
    const std::uint64_t count =
        __builtin_mul_overflow(tid, c, &first) || first >= trip ? 0 : std::min(c, trip - first);
    const T ub = *pupper;
    *plower = add_scaled(*plower, first, incr);
    *pupper = count == 0 ? ub : add_scaled(*plower, count - 1, incr);
    if (count == 0) *plower = add_scaled(ub, 1, incr);  // empty: lower one step past upper
    if (plastiter != nullptr) *plastiter = count != 0 && first + count == trip ? 1 : 0;
    *pstride = static_cast<ST>(add_scaled(T{0}, trip, incr));
    return;
  }
  if (chunked) {
    const std::uint64_t c = chunk > 0 ? static_cast<std::uint64_t>(chunk) : 1;
    *plower = add_scaled(*plower, tid * c, incr);
    *pupper = add_scaled(*plower, c - 1, incr);
    *pstride = static_cast<ST>(add_scaled(T{0}, c * nth, incr));
    if (plastiter != nullptr) *plastiter = ((trip - 1) / c) % nth == tid ? 1 : 0;
    return;
  }
  // Unchunked: one block per thread, the first trip mod nth threads one iteration more
  // (LLVM's balanced static schedule, its default).
  const std::uint64_t q = trip / nth, r = trip % nth;
  const std::uint64_t first = tid < r ? tid * (q + 1) : r * (q + 1) + (tid - r) * q;
  const std::uint64_t count = tid < r ? q + 1 : q;
  if (count == 0) {
    *plower = add_scaled(*pupper, 1, incr);  // empty: lower one step past upper
  } else {
    *plower = add_scaled(*plower, first, incr);
    *pupper = add_scaled(*plower, count - 1, incr);
  }
  if (plastiter != nullptr) *plastiter = count != 0 && first + count == trip ? 1 : 0;
  *pstride = static_cast<ST>(add_scaled(T{0}, trip, incr));
}

// runtime_simd is LLVM's kmp_sch_runtime_simd (`schedule(simd: runtime)`) for a loop of n
// iterations, `width` the simd width: run-sched-var's static without a chunk, and auto, become
// the balanced simd blocks; another kind keeps its kind with chunk run_chunk·width, guided
// rounding its chunks to multiples of it (kmp_dispatch.cpp's __kmp_dispatch_init_algorithm).
LoopSched runtime_simd(ThreadState& ts, std::uint64_t width, std::uint64_t n) {
  const Icvs& icv = ts.task->icv;
  const unsigned kind = icv.run_sched & ~kMonotonic;
  const auto nth = static_cast<std::uint64_t>(ts.team->nthreads);
  if (kind != kSchedDynamic && kind != kSchedGuided && (kind != kSchedStatic || icv.run_chunk <= 0))
    return LoopSched{kSchedStatic, nth == 1 ? 0 : balanced_block(n, nth, width)};
  std::uint64_t chunk = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(std::max(icv.run_chunk, 1L)), width,
                             &chunk))
    chunk = n;
  return LoopSched{static_cast<int>(kind), chunk, kind == kSchedGuided};
}

// dispatch_sched turns an LLVM schedule and chunk into loop.cpp's schedule for a loop of n
// iterations; `ordered` tells whether the loop is ordered. The simd schedules get the simd width
// as their chunk.
LoopSched dispatch_sched(ThreadState& ts, kmp_int32 schedule, std::int64_t chunk, std::uint64_t n,
                         bool& ordered) {
  const std::uint64_t width = chunk > 0 ? static_cast<std::uint64_t>(chunk) : 1;
  kmp_int32 s = schedule & kSchModifierMask;
  if (s >= kNomergeLower && s < kNomergeUpper) s -= kNomergeLower - kSchStaticChunked + 1;
  ordered = s >= kOrdLower && s < kOrdUpper;
  if (ordered) s -= kOrdLower - (kSchStaticChunked - 1);
  switch (s) {
    case kSchStaticChunked:
    case kDistributeStaticChunked:
      return sched_resolve(ts, kSchedStatic, chunk);
    case kSchStaticBalancedChunked: {
      const auto nth = static_cast<std::uint64_t>(ts.team->nthreads);
      return LoopSched{kSchedStatic, nth == 1 ? 0 : balanced_block(n, nth, width)};
    }
    case kSchGuidedSimd:
      return LoopSched{kSchedGuided, width, /*simd=*/true};
    case kSchRuntimeSimd:
      return runtime_simd(ts, width, n);
    case kSchStatic:
    case kSchStaticGreedy:
    case kSchStaticBalanced:
    case kDistributeStatic:
      return sched_resolve(ts, kSchedStatic, 0);
    case kSchDynamicChunked:
    case kSchStaticSteal:
      return sched_resolve(ts, kSchedDynamic, chunk);
    case kSchGuidedChunked:
    case kSchTrapezoidal:
    case kSchGuidedIterative:
    case kSchGuidedAnalytical:
      return sched_resolve(ts, kSchedGuided, chunk);
    case kSchAuto:
      return sched_resolve(ts, kSchedAuto, 0);
    default:  // runtime, unknown: run-sched-var
      return sched_resolve(ts, 0, 0);
  }
}

// dispatch_init starts a dispatched loop [lb, ub] step st in the caller's next work share.
template <class T, class ST>
void dispatch_init(kmp_int32 schedule, T lb, T ub, ST st, ST chunk) {
  ThreadState& ts = self();
  bool ordered = false;
  const std::uint64_t n = trip_of(lb, ub, st);
  const LoopSched sched =
      dispatch_sched(ts, schedule, static_cast<std::int64_t>(chunk), n, ordered);
  using U = std::make_unsigned_t<T>;
  const auto lb64 = static_cast<std::uint64_t>(static_cast<U>(lb));
  const auto st64 = static_cast<std::uint64_t>(static_cast<std::int64_t>(st));
  loop_begin(ts, lb64, lb64 + n * st64, st64, n, sched, ordered);
}

// dispatch_next hands the caller its next chunk [*p_lb, *p_ub]; 0 when the loop is done (the
// caller then leaves the work share).
template <class T, class ST>
kmp_int32 dispatch_next(kmp_int32* p_last, T* p_lb, T* p_ub, ST* p_st) {
  ThreadState& ts = self();
  std::uint64_t a = 0, b = 0;
  // relaxed: `cancel for` (kmpc_cancel.cpp) only stops the hand-out; no data travels with it.
  if (__builtin_expect(ts.team->kmp_cancel_ws.load(std::memory_order_relaxed), 0) ||
      !loop_next(ts, a, b)) {
    loop_end_common(ts, /*barrier=*/false, /*cancellable=*/false);
    return 0;
  }
  const LoopState& s = ts.ws->loop;
  *p_lb = static_cast<T>(s.lb + a * s.incr);
  *p_ub = static_cast<T>(s.lb + (b - 1) * s.incr);
  if (p_st != nullptr) *p_st = static_cast<ST>(static_cast<std::int64_t>(s.incr));
  if (p_last != nullptr) *p_last = b == s.n ? 1 : 0;
  return 1;
}

// dist_static_init is `distribute parallel for` with a static loop schedule: the caller's team's
// block of the iterations (*pupperD its end), then the caller's part of that block.
template <class T, class ST>
void dist_static_init(kmp_int32 schedtype, kmp_int32* plastiter, T* plower, T* pupper, T* pupperD,
                      ST* pstride, ST incr, ST chunk) {
  kmp_int32 team_last = 0;
  ST team_stride = 0;
  static_init<T, ST>(kDistributeStatic, &team_last, plower, pupper, &team_stride, incr, ST{0});
  if (pupperD != nullptr) *pupperD = *pupper;
  if (trip_of(*plower, *pupper, incr) == 0) {
    if (plastiter != nullptr) *plastiter = 0;
    *pstride = incr;
    return;
  }
  kmp_int32 last = 0;
  static_init<T, ST>(schedtype, &last, plower, pupper, pstride, incr, chunk);
  if (plastiter != nullptr) *plastiter = team_last != 0 && last != 0 ? 1 : 0;
}

}  // namespace

// KMPC_DIST defines __kmpc_dist_for_static_init_<sfx> for induction type T, stride ST.
#define KMPC_DIST(sfx, T, ST)                                                                     \
  RTPAR_OMP_EXPORT void __kmpc_dist_for_static_init_##sfx(                                        \
      ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 schedtype, kmp_int32* plastiter, T* plower,   \
      T* pupper, T* pupperD, ST* pstride, ST incr, ST chunk) {                                    \
    dist_static_init<T, ST>(schedtype, plastiter, plower, pupper, pupperD, pstride, incr, chunk); \
  }

KMPC_DIST(4, kmp_int32, kmp_int32)
KMPC_DIST(4u, kmp_uint32, kmp_int32)
KMPC_DIST(8, kmp_int64, kmp_int64)
KMPC_DIST(8u, kmp_uint64, kmp_int64)

// KMPC_LOOP defines __kmpc_for_static_init_<sfx>, __kmpc_dispatch_init_<sfx>,
// __kmpc_dispatch_next_<sfx> and __kmpc_dispatch_fini_<sfx> for induction type T, stride ST.
#define KMPC_LOOP(sfx, T, ST)                                                                      \
  RTPAR_OMP_EXPORT void __kmpc_for_static_init_##sfx(                                              \
      ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 schedtype, kmp_int32* plastiter, T* plower,    \
      T* pupper, ST* pstride, ST incr, ST chunk) {                                                 \
    static_init<T, ST>(schedtype, plastiter, plower, pupper, pstride, incr, chunk);                \
  }                                                                                                \
  RTPAR_OMP_EXPORT void __kmpc_dispatch_init_##sfx(                                                \
      ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 schedule, T lb, T ub, ST st, ST chunk) {       \
    dispatch_init<T, ST>(schedule, lb, ub, st, chunk);                                             \
  }                                                                                                \
  RTPAR_OMP_EXPORT int __kmpc_dispatch_next_##sfx(ident* /*loc*/, kmp_int32 /*gtid*/,              \
                                                  kmp_int32* p_last, T* p_lb, T* p_ub, ST* p_st) { \
    return dispatch_next<T, ST>(p_last, p_lb, p_ub, p_st);                                         \
  }                                                                                                \
  RTPAR_OMP_EXPORT void __kmpc_dispatch_fini_##sfx(ident* /*loc*/, kmp_int32 /*gtid*/) {}

KMPC_LOOP(4, kmp_int32, kmp_int32)
KMPC_LOOP(4u, kmp_uint32, kmp_int32)
KMPC_LOOP(8, kmp_int64, kmp_int64)
KMPC_LOOP(8u, kmp_uint64, kmp_int64)

// __kmpc_for_static_fini ends a static loop: nothing to release (no shared state).
RTPAR_OMP_EXPORT void __kmpc_for_static_fini(ident* /*loc*/, kmp_int32 /*gtid*/) {}

}  // namespace rtpar::omp::kmpc
