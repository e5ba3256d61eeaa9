// loop_state.hpp — the state of a worksharing loop (or sections) in a work share, and each
// thread's cursor into it. Implemented by loop.cpp, loop_ull.cpp and loop_start.cpp; every
// WorkShare embeds a LoopState and every ThreadState a LoopCursor (runtime.hpp), and parallel.cpp
// calls loop_state_reset when a work share is recycled.
//
// Every loop is dispatched in its *logical* iteration space [0, n): logical iteration j is the
// value lb + j·incr. Both families (long and unsigned long long) keep lb, incr and the given end
// as 64-bit patterns, so one dispatcher serves both and wrap-around ranges near the type limits
// need no special case (the arithmetic is modulo 2^64, the trip count is exact). The implementation
// is in loop.cpp (dispatch), ordered.cpp, doacross.cpp, loop_start.cpp (GOMP_loop_start's extras).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace rtpar::omp {

struct ThreadState;
struct WorkShare;

// DoacrossState is the dependence bookkeeping of one doacross loop (`ordered(n)` with
// depend(sink/source)): one "posted" word per slot of the first dimension (doacross.cpp). The
// buffers are grow-only and belong to the work-share slot, so a doacross loop after the first of
// a given size allocates nothing.
struct DoacrossState {
  unsigned ndims = 0;                      // ordered(n): the number of dimensions
  std::uint64_t* dims = nullptr;           // iteration counts of each dimension [ndims]
  std::uint64_t* mult = nullptr;           // flattening multipliers [ndims]
  unsigned dims_cap = 0;                   // capacity of dims and mult
  bool whole = true;                       // the flattened index covers every dimension
  int slot_mode = 0;                       // 0: slot = i / grain, 1: slot = owner thread (block)
  std::uint64_t grain = 1;                 // slot_mode 0: iterations of dimension 0 per slot
  std::uint64_t block_q = 0, block_r = 0;  // slot_mode 1: block size and remainder
  std::atomic<std::uint64_t>* posted = nullptr;  // per slot: last posted flat index + 1
  std::size_t posted_cap = 0;                    // capacity of posted
  // word is a signal word for sleeping waiters: a waiter sets its SLEEPER bit before it sleeps,
  // a post that sees the bit changes the payload and wakes them (doacross.cpp).
  std::atomic<std::uint32_t> word{0};
};

// LoopState is the shared iteration state of one loop instance (initialised by the first thread
// that enters the work share, before the core publishes it to the others).
struct LoopState {
  std::uint64_t n = 0;      // trip count (logical iterations)
  std::uint64_t chunk = 0;  // logical chunk size (static: 0 is one block per thread)
  std::uint64_t lb = 0;     // value of logical iteration 0 (bits of a long or unsigned long long)
  std::uint64_t incr = 1;   // stride (bits; negative strides are two's complement)
  std::uint64_t ub = 0;     // the end the program gave: iend of the last chunk
  int kind = 0;             // SchedKind after resolving runtime/auto
  bool fast = false;        // dynamic: fetch_add cannot overflow, so no CAS loop is needed
  bool ordered = false;     // an `ordered` loop: chunks pass the ordered token in order
  bool simd = false;        // guided: every chunk but the last a multiple of chunk (LLVM's
                            // kmp_sch_guided_simd)
  std::uintptr_t* task_reductions = nullptr;       // GOMP_loop_start: the first thread's reductions
  alignas(64) std::atomic<std::uint64_t> next{0};  // next logical iteration (dynamic/guided)
  alignas(64) std::atomic<std::uint64_t> ordered_turn{0};  // first iteration of the chunk
                                                           // allowed into `ordered` next
  // ordered_word is a signal word that changes on every token pass, so that the threads
  // waiting for their turn can sleep (ordered.cpp).
  std::atomic<std::uint32_t> ordered_word{0};
  DoacrossState doacross;  // doacross.cpp
};

// LoopCursor is one thread's position in its current loop (legacy static loops, ordered).
struct LoopCursor {
  std::uint64_t static_trip = 0;  // chunks this thread took so far in a static loop
  std::uint64_t ord_begin = 0;    // ordered: the chunk this thread holds, [ord_begin, ord_end)
  std::uint64_t ord_end = 0;
  bool ord_held = false;  // ordered: the thread holds a chunk not yet passed on
};

// loop_state_reset clears a work share's loop state when its slot is reused (CORE). Keeps the
// grow-only doacross buffers.
inline void loop_state_reset(LoopState& s) noexcept {
  s.n = s.chunk = s.lb = s.ub = 0;
  s.incr = 1;
  s.kind = 0;
  s.fast = false;
  s.ordered = false;
  s.simd = false;
  s.task_reductions = nullptr;
  // relaxed, both: the core publishes the reset slot (work_share.cpp (3)).
  s.next.store(0, std::memory_order_relaxed);
  s.ordered_turn.store(0, std::memory_order_relaxed);
}

// ---- loop internals (loop.cpp, loop_ull.cpp, loop_start.cpp; not used by the team or tasks) ----

// LoopSched is a resolved schedule: kind (static, dynamic, guided) and logical chunk; `simd`
// (guided only) rounds every chunk but the last up to a multiple of `chunk`.
struct LoopSched {
  int kind;
  std::uint64_t chunk;
  bool simd = false;
};

// sched_resolve turns a GOMP schedule (kind 0 runtime, 1 static, 2 dynamic, 3 guided, 4 auto,
// possibly with the monotonic bit) and chunk (≤ 0 / 0: default) into a LoopSched; `runtime`
// reads the caller's run-sched-var.
LoopSched sched_resolve(ThreadState& ts, unsigned kind, std::int64_t chunk);

// trip_long / trip_ull are the trip counts of `for (i = lb; i < ub (or > ub); i += incr)`.
std::uint64_t trip_long(long lb, long ub, long incr) noexcept;
std::uint64_t trip_ull(bool up, unsigned long long lb, unsigned long long ub,
                       unsigned long long incr) noexcept;

// loop_init initialises a loop in work share w for a team of nthreads.
void loop_init(WorkShare& w, int nthreads, std::uint64_t lb, std::uint64_t ub, std::uint64_t incr,
               std::uint64_t n, LoopSched sched, bool ordered);

// loop_enter enters the caller's next work share for a loop and resets the caller's cursor;
// true if the caller is first and must initialise the work share and call ws_publish.
bool loop_enter(ThreadState& ts);

// loop_begin enters the caller's next work share as a loop, initialising it if first (with
// GOMP_loop_start's `reductions` and `mem` extras when non-null).
void loop_begin(ThreadState& ts, std::uint64_t lb, std::uint64_t ub, std::uint64_t incr,
                std::uint64_t n, LoopSched sched, bool ordered,
                std::uintptr_t* reductions = nullptr, void** mem = nullptr);

// loop_next hands the caller its next chunk [a, b) of logical iterations; false when none is
// left (or the loop was cancelled). Passes on the ordered token of the previous chunk first.
bool loop_next(ThreadState& ts, std::uint64_t& a, std::uint64_t& b);

// loop_next_long is loop_next for the long family: the caller's next chunk as the program's
// [*istart, *iend); false when none is left. One copy for GOMP_loop_*_start/next and
// GOMP_loop_start (loop.cpp, loop_start.cpp).
bool loop_next_long(ThreadState& ts, long* istart, long* iend);

// loop_bounds converts a logical chunk to the program's [istart, iend) (bit patterns).
inline void loop_bounds(const LoopState& s, std::uint64_t a, std::uint64_t b, std::uint64_t& istart,
                        std::uint64_t& iend) noexcept {
  istart = s.lb + a * s.incr;
  iend = b == s.n ? s.ub : s.lb + b * s.incr;
}

// loop_end_common leaves the caller's current loop: passes on an ordered chunk still held,
// then waits at the barrier (unless nowait) and leaves the work share. Returns the barrier's
// cancellation result.
bool loop_end_common(ThreadState& ts, bool barrier, bool cancellable);

// ordered_pass passes the ordered token of the caller's held chunk on (ordered.cpp).
void ordered_pass(ThreadState& ts);

// ordered_enter enters an `ordered` region of the caller's chunk: waits until the chunk is next
// (ordered.cpp; nothing when the caller is not in an ordered loop).
void ordered_enter(ThreadState& ts);

// doacross_init sets the doacross bookkeeping of work share w up (doacross.cpp); counts are the
// iteration counts of the ndims dimensions.
void doacross_init(WorkShare& w, int nthreads, unsigned ndims, const std::uint64_t* counts,
                   LoopSched sched);

// doacross_post_logical records that the caller finished the iteration whose logical index in
// each dimension is idx[k], in doacross work share w (LLVM's ABI, kmpc_doacross.cpp).
void doacross_post_logical(WorkShare& w, const std::int64_t* idx);

// doacross_wait_logical waits until the iteration idx (logical indices) of work share w was
// posted; an iteration outside the iteration space is ignored.
void doacross_wait_logical(ThreadState& ts, WorkShare& w, const std::int64_t* idx);

// loop_extras handles GOMP_loop_start's `reductions` and `mem` for the caller, who just entered
// work share ts.ws (`first`: the initialiser, before publication) (loop_start.cpp).
void loop_extras(ThreadState& ts, bool first, std::uintptr_t* reductions, void** mem);

}  // namespace rtpar::omp
