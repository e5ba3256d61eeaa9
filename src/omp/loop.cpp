// loop.cpp — worksharing-loop dispatch (OpenMP 5.0 §2.9.2) and the GOMP_loop_* entry points of the
// `long` family (the unsigned long long family is in loop_ull.cpp).
//
// A loop runs in its logical iteration space [0, n) (loop_state.hpp). The dispatch takes no lock
// and allocates nothing:
//  - static: computed from the thread number and a per-thread trip counter (chunk k goes to
//    thread k mod nthreads; without a chunk, one contiguous block per thread), as libgomp does;
//  - dynamic: one fetch_add on the shared counter per chunk (a CAS loop only when n is so close to
//    2^64 that the overshoot of the final fetch_adds could wrap);
//  - guided: a CAS loop taking max(chunk, ⌈remaining / nthreads⌉) iterations (OpenMP 5.0
//    §2.9.2: proportional to the unassigned iterations divided by the number of threads; factor
//    1, as libgomp. A factor 1/2 made twice the hand-outs, each a contended CAS).
// Runtime schedules read run-sched-var; auto is static. Monotonic and nonmonotonic variants share
// the dispatch: every schedule here hands chunks out in increasing order, which is monotonic.
//
// Memory ordering: the loop description is published by the work share (work_share.cpp (2)).
// The counter `next` only partitions iterations among threads: every RMW on it is relaxed (the
// RMWs of one word are totally ordered, so no iteration is handed out twice); the program's data
// is ordered by the barrier at the loop's end, or by the program itself after nowait.
#include <climits>

#include "omp/runtime.hpp"

namespace rtpar::omp {

LoopSched sched_resolve(ThreadState& ts, unsigned kind, std::int64_t chunk) {
  kind &= ~kMonotonic;
  if (kind == 0) {  // runtime: run-sched-var
    kind = ts.task->icv.run_sched & ~kMonotonic;
    chunk = ts.task->icv.run_chunk;
  }
  switch (kind) {
    case kSchedDynamic:
    case kSchedGuided:
      return LoopSched{static_cast<int>(kind), chunk > 0 ? static_cast<std::uint64_t>(chunk) : 1};
    case kSchedStatic:
      return LoopSched{kSchedStatic, chunk > 0 ? static_cast<std::uint64_t>(chunk) : 0};
    default:  // auto (and anything unknown): one block per thread
      return LoopSched{kSchedStatic, 0};
  }
}

std::uint64_t trip_long(long lb, long ub, long incr) noexcept {
  if (incr > 0) {
    if (ub <= lb) return 0;
    const std::uint64_t d = static_cast<std::uint64_t>(ub) - static_cast<std::uint64_t>(lb);
    return (d - 1) / static_cast<std::uint64_t>(incr) + 1;
  }
  if (incr < 0) {
    if (ub >= lb) return 0;
    const std::uint64_t d = static_cast<std::uint64_t>(lb) - static_cast<std::uint64_t>(ub);
    return (d - 1) / (0 - static_cast<std::uint64_t>(incr)) + 1;
  }
  return 0;  // a zero stride is not a conforming loop: run nothing rather than forever
}

std::uint64_t trip_ull(bool up, unsigned long long lb, unsigned long long ub,
                       unsigned long long incr) noexcept {
  if (incr == 0) return 0;
  if (up) return ub <= lb ? 0 : (ub - lb - 1) / incr + 1;
  return ub >= lb ? 0 : (lb - ub - 1) / (0 - incr) + 1;
}

void loop_init(WorkShare& w, int nthreads, std::uint64_t lb, std::uint64_t ub, std::uint64_t incr,
               std::uint64_t n, LoopSched sched, bool ordered) {
  LoopState& s = w.loop;
  s.n = n;
  s.lb = lb;
  s.ub = ub;
  s.incr = incr;
  s.kind = sched.kind;
  s.chunk = sched.chunk;
  s.ordered = ordered;
  s.simd = sched.simd && s.kind == kSchedGuided;
  s.task_reductions = nullptr;
  if (s.kind != kSchedStatic && s.chunk > n) s.chunk = n == 0 ? 1 : n;
  // fast: after the counter passes n, each member adds at most one more chunk, so the counter
  // stays below n + (nthreads + 1)·chunk; fetch_add is safe when that cannot wrap.
  std::uint64_t over = 0;
  s.fast = !__builtin_mul_overflow(static_cast<std::uint64_t>(nthreads) + 1, s.chunk, &over) &&
           !__builtin_add_overflow(n, over, &over);
  // relaxed, both: published by ws_publish (or the fork, for a combined parallel loop).
  s.next.store(0, std::memory_order_relaxed);
  s.ordered_turn.store(0, std::memory_order_relaxed);
}

bool loop_enter(ThreadState& ts) {
  ts.loop.static_trip = 0;
  ts.loop.ord_held = false;
  return ws_enter(ts);
}

void loop_begin(ThreadState& ts, std::uint64_t lb, std::uint64_t ub, std::uint64_t incr,
                std::uint64_t n, LoopSched sched, bool ordered, std::uintptr_t* reductions,
                void** mem) {
  if (loop_enter(ts)) {
    loop_init(*ts.ws, ts.team->nthreads, lb, ub, incr, n, sched, ordered);
    if (reductions != nullptr || mem != nullptr) loop_extras(ts, true, reductions, mem);
    ws_publish(ts);
  } else if (reductions != nullptr || mem != nullptr) {
    loop_extras(ts, false, reductions, mem);
  }
}

namespace {

// static_next is the static schedule: the caller's next chunk from its thread number and trip.
bool static_next(ThreadState& ts, const LoopState& s, std::uint64_t& a, std::uint64_t& b) {
  const auto nth = static_cast<std::uint64_t>(ts.team->nthreads);
  const auto tid = static_cast<std::uint64_t>(ts.tid);
  LoopCursor& c = ts.loop;
  if (s.chunk == 0) {  // one block per thread: the first n mod nthreads get one more iteration
    if (c.static_trip != 0) return false;
    c.static_trip = 1;
    const std::uint64_t q = s.n / nth, r = s.n % nth;
    a = tid < r ? tid * (q + 1) : r * (q + 1) + (tid - r) * q;
    b = a + (tid < r ? q + 1 : q);
    return a < b;
  }
  std::uint64_t k = 0;
  if (__builtin_mul_overflow(c.static_trip, nth, &k) || __builtin_add_overflow(k, tid, &k) ||
      __builtin_mul_overflow(k, s.chunk, &a) || a >= s.n) {
    return false;
  }
  ++c.static_trip;
  b = s.n - a <= s.chunk ? s.n : a + s.chunk;
  return true;
}

// dynamic_next is the dynamic schedule: the next `chunk` iterations of the shared counter.
bool dynamic_next(LoopState& s, std::uint64_t& a, std::uint64_t& b) {
  if (s.fast) {
    // relaxed: partitions the iterations only (file comment).
    a = s.next.fetch_add(s.chunk, std::memory_order_relaxed);
    if (a >= s.n) return false;
  } else {
    // relaxed: as above; the CAS never moves the counter past n, so it cannot wrap.
    a = s.next.load(std::memory_order_relaxed);
    do {
      if (a >= s.n) return false;
      b = s.n - a <= s.chunk ? s.n : a + s.chunk;
    } while (!s.next.compare_exchange_weak(a, b, std::memory_order_relaxed));
  }
  b = s.n - a <= s.chunk ? s.n : a + s.chunk;
  return true;
}

// guided_next is the guided schedule: a share of the remaining iterations, at least `chunk`
// (with `simd`, a multiple of it unless it is the rest).
bool guided_next(ThreadState& ts, LoopState& s, std::uint64_t& a, std::uint64_t& b) {
  const auto parts = static_cast<std::uint64_t>(ts.team->nthreads);
  // relaxed: partitions the iterations only (file comment).
  a = s.next.load(std::memory_order_relaxed);
  do {
    if (a >= s.n) return false;
    const std::uint64_t rem = s.n - a;
    std::uint64_t q = rem / parts + (rem % parts != 0 ? 1 : 0);
    if (q < s.chunk) q = s.chunk;
    if (s.simd && q % s.chunk != 0) {  // up to a multiple (here q ≤ rem), or the rest
      const std::uint64_t up = s.chunk - q % s.chunk;
      q = up >= rem - q ? rem : q + up;
    }
    b = q >= rem ? s.n : a + q;
  } while (!s.next.compare_exchange_weak(a, b, std::memory_order_relaxed));
  return true;
}

}  // namespace

bool loop_next(ThreadState& ts, std::uint64_t& a, std::uint64_t& b) {
  WorkShare& w = *ts.ws;
  LoopState& s = w.loop;
  if (ts.loop.ord_held) ordered_pass(ts);
  // relaxed: `cancel for` only stops the hand-out; no data travels with the flag.
  if (__builtin_expect(w.cancelled.load(std::memory_order_relaxed), 0)) return false;
  bool got;
  switch (s.kind) {
    case kSchedStatic:
      got = static_next(ts, s, a, b);
      break;
    case kSchedGuided:
      got = guided_next(ts, s, a, b);
      break;
    default:
      got = dynamic_next(s, a, b);
      break;
  }
  if (got && s.ordered) {
    ts.loop.ord_begin = a;
    ts.loop.ord_end = b;
    ts.loop.ord_held = true;
  }
  return got;
}

bool loop_next_long(ThreadState& ts, long* istart, long* iend) {
  std::uint64_t a = 0, b = 0;
  if (!loop_next(ts, a, b)) return false;
  std::uint64_t s = 0, e = 0;
  loop_bounds(ts.ws->loop, a, b, s, e);
  *istart = static_cast<long>(s);
  *iend = static_cast<long>(e);
  return true;
}

bool loop_end_common(ThreadState& ts, bool barrier, bool cancellable) {
  if (ts.loop.ord_held) ordered_pass(ts);
  if (barrier && !cancellable) {
    // The barrier's last arriver frees the slot: no RMW on the shared slot after the barrier.
    team_barrier(ts, false, /*end_ws=*/true);
    return false;
  }
  bool cancelled = false;
  if (barrier) cancelled = team_barrier(ts, cancellable);
  ws_leave(ts);
  return cancelled;
}

namespace {

// start_long begins a long-family loop and hands out the caller's first chunk.
bool start_long(long start, long end, long incr, LoopSched sched, bool ordered, long* istart,
                long* iend) {
  ThreadState& ts = self();
  loop_begin(ts, static_cast<std::uint64_t>(start), static_cast<std::uint64_t>(end),
             static_cast<std::uint64_t>(incr), trip_long(start, end, incr), sched, ordered);
  return loop_next_long(ts, istart, iend);
}

// next_long hands out the caller's next chunk of its current long-family loop.
bool next_long(long* istart, long* iend) { return loop_next_long(self(), istart, iend); }

}  // namespace

// ---- GOMP entry points: start ----

// GOMP_LOOP_START defines GOMP_loop_<name>_start for schedule `kind` (ordered or not).
#define GOMP_LOOP_START(name, kind, ordered)                                                  \
  RTPAR_OMP_EXPORT bool GOMP_loop_##name##_start(long start, long end, long incr, long chunk, \
                                                 long* istart, long* iend) {                  \
    return start_long(start, end, incr, sched_resolve(self(), kind, chunk), ordered, istart,  \
                      iend);                                                                  \
  }
// GOMP_LOOP_RUNTIME_START defines GOMP_loop_<name>_start for schedule(runtime).
#define GOMP_LOOP_RUNTIME_START(name, ordered)                                                  \
  RTPAR_OMP_EXPORT bool GOMP_loop_##name##_start(long start, long end, long incr, long* istart, \
                                                 long* iend) {                                  \
    return start_long(start, end, incr, sched_resolve(self(), 0, 0), ordered, istart, iend);    \
  }
// GOMP_LOOP_NEXT defines GOMP_loop_<name>_next (the dispatch knows the loop's schedule).
#define GOMP_LOOP_NEXT(name)                                                \
  RTPAR_OMP_EXPORT bool GOMP_loop_##name##_next(long* istart, long* iend) { \
    return next_long(istart, iend);                                         \
  }

GOMP_LOOP_START(static, kSchedStatic, false)
GOMP_LOOP_START(dynamic, kSchedDynamic, false)
GOMP_LOOP_START(guided, kSchedGuided, false)
GOMP_LOOP_START(nonmonotonic_dynamic, kSchedDynamic, false)
GOMP_LOOP_START(nonmonotonic_guided, kSchedGuided, false)
GOMP_LOOP_RUNTIME_START(runtime, false)
GOMP_LOOP_RUNTIME_START(nonmonotonic_runtime, false)
GOMP_LOOP_RUNTIME_START(maybe_nonmonotonic_runtime, false)
GOMP_LOOP_START(ordered_static, kSchedStatic, true)
GOMP_LOOP_START(ordered_dynamic, kSchedDynamic, true)
GOMP_LOOP_START(ordered_guided, kSchedGuided, true)
GOMP_LOOP_RUNTIME_START(ordered_runtime, true)

GOMP_LOOP_NEXT(static)
GOMP_LOOP_NEXT(dynamic)
GOMP_LOOP_NEXT(guided)
GOMP_LOOP_NEXT(nonmonotonic_dynamic)
GOMP_LOOP_NEXT(nonmonotonic_guided)
GOMP_LOOP_NEXT(runtime)
GOMP_LOOP_NEXT(nonmonotonic_runtime)
GOMP_LOOP_NEXT(maybe_nonmonotonic_runtime)
GOMP_LOOP_NEXT(ordered_static)
GOMP_LOOP_NEXT(ordered_dynamic)
GOMP_LOOP_NEXT(ordered_guided)
GOMP_LOOP_NEXT(ordered_runtime)

// ---- GOMP entry points: end (both families) ----

// GOMP_loop_end ends a loop with its implicit barrier.
RTPAR_OMP_EXPORT void GOMP_loop_end() { loop_end_common(self(), true, false); }

// GOMP_loop_end_nowait ends a `nowait` loop.
RTPAR_OMP_EXPORT void GOMP_loop_end_nowait() { loop_end_common(self(), false, false); }

// GOMP_loop_end_cancel ends a loop in a cancellable region; true if the region was cancelled.
RTPAR_OMP_EXPORT bool GOMP_loop_end_cancel() { return loop_end_common(self(), true, true); }

}  // namespace rtpar::omp
