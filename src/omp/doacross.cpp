// doacross.cpp — doacross loops: `ordered(n)` loops with `depend(sink: ...)` / `depend(source)`
// (OpenMP 5.0 §2.17.9), GOMP_loop_[ull_]doacross_*_start, GOMP_doacross_[ull_]{post,wait}.
//
// The worksharing loop runs over dimension 0's logical iterations [0, counts[0]); post and wait
// name an iteration by its logical index in each of the n dimensions. The iterations of one chunk
// of dimension 0 run on one thread in lexicographic order, so one word per chunk ("slot") records
// how far its owner got: the flattened (row-major) index of the last iteration it posted, plus
// one. A wait for iteration v is satisfied when v's slot holds more than flat(v). Slots: one per
// thread for a static loop without a chunk (its block), one per chunk for static and dynamic
// chunks (aligned at multiples of the chunk), one per iteration of dimension 0 for guided. If the
// flattened index of all dimensions would not fit in 64 bits, the slots are per iteration of
// dimension 0 and the flattened index covers the others only.
//
// Memory ordering: a post is a release store of the slot (the iteration's writes, and everything
// its owner did before in the chunk, happen before); a wait's acquire load that sees a large
// enough value synchronises with it. Waiters that sleep do so on the loop's signal word `word`
// after setting its SLEEPER bit; a post issues a seq_cst fence and wakes them only if it sees the
// bit (no system call while nobody sleeps). The slots are zeroed by the initialiser and published
// with the work share (work_share.cpp (2)). Buffers are grow-only per work-share slot.
#include <cstdarg>

#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// reserve_dims makes room for ndims dimensions in d.
void reserve_dims(DoacrossState& d, unsigned ndims) {
  if (ndims <= d.dims_cap) return;
  delete[] d.dims;
  delete[] d.mult;
  d.dims = new std::uint64_t[ndims];
  d.mult = new std::uint64_t[ndims];
  d.dims_cap = ndims;
}

// reserve_slots makes room for n slots in d.
void reserve_slots(DoacrossState& d, std::size_t n) {
  if (n <= d.posted_cap) return;
  delete[] d.posted;
  d.posted = new std::atomic<std::uint64_t>[n];
  d.posted_cap = n;
}

// slot_of is the slot of dimension-0 iteration i.
std::size_t slot_of(const DoacrossState& d, std::uint64_t i) noexcept {
  if (d.slot_mode == 0) return static_cast<std::size_t>(i / d.grain);
  const std::uint64_t big = d.block_r * (d.block_q + 1);  // iterations of the larger blocks
  if (i < big) return static_cast<std::size_t>(i / (d.block_q + 1));
  return static_cast<std::size_t>(d.block_r + (i - big) / d.block_q);
}

// Flat accumulates the flattened index of an iteration, one dimension at a time.
struct Flat {
  const DoacrossState& d;
  std::uint64_t flat = 0;
  std::uint64_t first = 0;
  bool in_range = true;
  // add takes the logical index v of dimension k (negative_in: a signed value was negative).
  void add(unsigned k, std::uint64_t v, bool negative_in) noexcept {
    if (negative_in || v >= d.dims[k]) {
      in_range = false;
      return;
    }
    if (k == 0) first = v;
    if (k != 0 || d.whole) flat += v * d.mult[k];
  }
};

// post records that the caller finished the iteration f names, and wakes sleeping waiters.
void post(WorkShare& w, const Flat& f) {
  DoacrossState& d = w.loop.doacross;
  if (!f.in_range || d.posted == nullptr) return;
  // release: the iteration's writes happen before a wait that sees this value (file comment).
  d.posted[slot_of(d, f.first)].store(f.flat + 1, std::memory_order_release);
  // seq_cst (W): the post is visible before we read the SLEEPER bit; pairs with the waiter's
  // fence (S) as in Dekker's protocol: either the waiter's last check sees the post, or this
  // load sees its bit.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // relaxed: only decides whether a wake-up is needed (W).
  const std::uint32_t v = d.word.load(std::memory_order_relaxed);
  if ((v & detail::kSleeper) != 0) detail::publish(d.word, (v & ~detail::kSleeper) + 2);
}

// wait waits until the iteration f names was posted (or the loop or region is cancelled):
// spinning per the team's wait policy, then asleep on the doacross signal word. With
// cancellation enabled it polls (wait_for), since cancelling does not touch the word.
void wait(ThreadState& ts, WorkShare& w, const Flat& f) {
  DoacrossState& d = w.loop.doacross;
  if (!f.in_range || d.posted == nullptr) return;
  std::atomic<std::uint64_t>& slot = d.posted[slot_of(d, f.first)];
  const auto done = [&] {
    // acquire: pairs with post's release store.
    if (slot.load(std::memory_order_acquire) > f.flat) return true;
    // relaxed, both: cancellation only ends the wait.
    return w.cancelled.load(std::memory_order_relaxed) ||
           ts.team->cancelled.load(std::memory_order_relaxed);
  };
  if (done()) return;
  if (globals().cancellation) {
    wait_for(ts, done);
    return;
  }
  const detail::WaitSpec& spec = ts.team->wait;
  if (spec.kind != WaitKind::block) {
    const std::int64_t budget = spec.kind == WaitKind::spin ? detail::kSpinForever : spec.spin_ns;
    if (detail::spin_until(done, budget)) return;
  }
  for (;;) {
    // relaxed: the word carries no data; done() reads the slot with acquire.
    std::uint32_t v = d.word.load(std::memory_order_relaxed);
    if ((v & detail::kSleeper) == 0) {
      // relaxed CAS: sets the SLEEPER bit; an RMW on the word, so a post's publish either sees
      // the bit or makes this CAS fail.
      if (!d.word.compare_exchange_weak(v, v | detail::kSleeper, std::memory_order_relaxed)) {
        continue;
      }
      v |= detail::kSleeper;
    }
    // seq_cst (S): the bit is visible before the last check (see post's fence (W)).
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (done()) return;
    detail::futex_wait(d.word, v);
    if (done()) return;
  }
}

// start_doacross begins a doacross loop over counts[0] and hands out the caller's first chunk.
bool start_doacross(unsigned ndims, const std::uint64_t* counts, LoopSched sched,
                    std::uint64_t* istart, std::uint64_t* iend, std::uintptr_t* reductions,
                    void** mem) {
  ThreadState& ts = self();
  if (loop_enter(ts)) {
    const std::uint64_t n = ndims == 0 ? 0 : counts[0];
    loop_init(*ts.ws, ts.team->nthreads, 0, n, 1, n, sched, false);
    doacross_init(*ts.ws, ts.team->nthreads, ndims, counts, sched);
    if (reductions != nullptr || mem != nullptr) loop_extras(ts, true, reductions, mem);
    ws_publish(ts);
  } else if (reductions != nullptr || mem != nullptr) {
    loop_extras(ts, false, reductions, mem);
  }
  if (istart == nullptr) return true;
  std::uint64_t a = 0, b = 0;
  if (!loop_next(ts, a, b)) return false;
  loop_bounds(ts.ws->loop, a, b, *istart, *iend);
  return true;
}

// kMaxDims bounds the dimensions a GOMP entry point copies on its stack.
constexpr unsigned kMaxDims = 64;

// start_long_counts converts long counts and begins the loop (long family).
bool start_long_counts(unsigned ndims, const long* counts, LoopSched sched, long* istart,
                       long* iend, std::uintptr_t* reductions, void** mem) {
  std::uint64_t c[kMaxDims];
  const unsigned k = ndims < kMaxDims ? ndims : kMaxDims;
  for (unsigned i = 0; i < k; ++i) c[i] = counts[i] < 0 ? 0 : static_cast<std::uint64_t>(counts[i]);
  std::uint64_t s = 0, e = 0;
  const bool got =
      start_doacross(k, c, sched, istart != nullptr ? &s : nullptr, &e, reductions, mem);
  if (istart != nullptr && got) {
    *istart = static_cast<long>(s);
    *iend = static_cast<long>(e);
  }
  return got;
}

}  // namespace

void doacross_init(WorkShare& w, int nthreads, unsigned ndims, const std::uint64_t* counts,
                   LoopSched sched) {
  DoacrossState& d = w.loop.doacross;
  d.ndims = ndims;
  if (ndims == 0) return;
  reserve_dims(d, ndims);
  for (unsigned k = 0; k < ndims; ++k) d.dims[k] = counts[k];
  // Row-major multipliers; `whole` if every flattened index (+1) fits in 64 bits.
  std::uint64_t m = 1;
  bool inner_fits = true;
  for (unsigned k = ndims; k-- > 1;) {
    d.mult[k] = m;
    if (__builtin_mul_overflow(m, d.dims[k] == 0 ? 1 : d.dims[k], &m)) inner_fits = false;
  }
  d.mult[0] = m;
  std::uint64_t total = 0;
  d.whole = inner_fits && !__builtin_mul_overflow(m, d.dims[0], &total) && total < UINT64_MAX;
  const std::uint64_t n = d.dims[0];
  const auto nth = static_cast<std::uint64_t>(nthreads);
  std::uint64_t nslots;
  if (d.whole && sched.kind == kSchedStatic && w.loop.chunk == 0) {
    d.slot_mode = 1;
    d.block_q = n / nth;
    d.block_r = n % nth;
    nslots = nth;
  } else {
    d.slot_mode = 0;
    d.grain = d.whole && sched.kind != kSchedGuided && w.loop.chunk != 0 ? w.loop.chunk : 1;
    nslots = n / d.grain + (n % d.grain != 0 ? 1 : 0);
  }
  reserve_slots(d, static_cast<std::size_t>(nslots));
  // relaxed: published by ws_publish (file comment).
  for (std::uint64_t i = 0; i < nslots; ++i) d.posted[i].store(0, std::memory_order_relaxed);
}

void doacross_post_logical(WorkShare& w, const std::int64_t* idx) {
  const DoacrossState& d = w.loop.doacross;
  Flat f{d};
  for (unsigned k = 0; k < d.ndims; ++k) f.add(k, static_cast<std::uint64_t>(idx[k]), idx[k] < 0);
  post(w, f);
}

void doacross_wait_logical(ThreadState& ts, WorkShare& w, const std::int64_t* idx) {
  const DoacrossState& d = w.loop.doacross;
  if (d.ndims == 0) return;
  Flat f{d};
  for (unsigned k = 0; k < d.ndims; ++k) f.add(k, static_cast<std::uint64_t>(idx[k]), idx[k] < 0);
  wait(ts, w, f);
}

// ---- GOMP entry points (long) ----

// GOMP_loop_doacross_static_start begins a doacross loop with schedule(static[, chunk]).
RTPAR_OMP_EXPORT bool GOMP_loop_doacross_static_start(unsigned ncounts, long* counts, long chunk,
                                                      long* istart, long* iend) {
  return start_long_counts(ncounts, counts, sched_resolve(self(), kSchedStatic, chunk), istart,
                           iend, nullptr, nullptr);
}

// GOMP_loop_doacross_dynamic_start begins a doacross loop with schedule(dynamic[, chunk]).
RTPAR_OMP_EXPORT bool GOMP_loop_doacross_dynamic_start(unsigned ncounts, long* counts, long chunk,
                                                       long* istart, long* iend) {
  return start_long_counts(ncounts, counts, sched_resolve(self(), kSchedDynamic, chunk), istart,
                           iend, nullptr, nullptr);
}

// GOMP_loop_doacross_guided_start begins a doacross loop with schedule(guided[, chunk]).
RTPAR_OMP_EXPORT bool GOMP_loop_doacross_guided_start(unsigned ncounts, long* counts, long chunk,
                                                      long* istart, long* iend) {
  return start_long_counts(ncounts, counts, sched_resolve(self(), kSchedGuided, chunk), istart,
                           iend, nullptr, nullptr);
}

// GOMP_loop_doacross_runtime_start begins a doacross loop with schedule(runtime).
RTPAR_OMP_EXPORT bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long* counts, long* istart,
                                                       long* iend) {
  return start_long_counts(ncounts, counts, sched_resolve(self(), 0, 0), istart, iend, nullptr,
                           nullptr);
}

// GOMP_loop_doacross_start is OpenMP 5.0's generic doacross start (sched as GOMP_loop_start).
RTPAR_OMP_EXPORT bool GOMP_loop_doacross_start(unsigned ncounts, long* counts, long sched,
                                               long chunk, long* istart, long* iend,
                                               std::uintptr_t* reductions, void** mem) {
  return start_long_counts(ncounts, counts,
                           sched_resolve(self(), static_cast<unsigned>(sched), chunk), istart, iend,
                           reductions, mem);
}

// GOMP_doacross_post is `depend(source)` / `doacross(source:)`: counts[k] is the logical index
// of the caller's iteration in dimension k.
RTPAR_OMP_EXPORT void GOMP_doacross_post(long* counts) {
  ThreadState& ts = self();
  const DoacrossState& d = ts.ws->loop.doacross;
  Flat f{d};
  for (unsigned k = 0; k < d.ndims; ++k) {
    f.add(k, static_cast<std::uint64_t>(counts[k]), counts[k] < 0);
  }
  post(*ts.ws, f);
}

// GOMP_doacross_wait is `depend(sink: ...)`: waits for the iteration whose logical indices are
// first, ... (one per dimension); an iteration outside the iteration space is ignored.
RTPAR_OMP_EXPORT void GOMP_doacross_wait(long first, ...) {
  ThreadState& ts = self();
  const DoacrossState& d = ts.ws->loop.doacross;
  if (d.ndims == 0) return;
  Flat f{d};
  f.add(0, static_cast<std::uint64_t>(first), first < 0);
  va_list ap;
  va_start(ap, first);
  for (unsigned k = 1; k < d.ndims; ++k) {
    const long v = va_arg(ap, long);
    f.add(k, static_cast<std::uint64_t>(v), v < 0);
  }
  va_end(ap);
  wait(ts, *ts.ws, f);
}

// ---- GOMP entry points (unsigned long long) ----

namespace {

// ull is the ull family's unsigned long long.
using ull = unsigned long long;

// start_ull_counts begins a doacross loop (ull family).
bool start_ull_counts(unsigned ndims, const ull* counts, LoopSched sched, ull* istart, ull* iend,
                      std::uintptr_t* reductions, void** mem) {
  std::uint64_t c[kMaxDims];
  const unsigned k = ndims < kMaxDims ? ndims : kMaxDims;
  for (unsigned i = 0; i < k; ++i) c[i] = counts[i];
  std::uint64_t s = 0, e = 0;
  const bool got =
      start_doacross(k, c, sched, istart != nullptr ? &s : nullptr, &e, reductions, mem);
  if (istart != nullptr && got) {
    *istart = s;
    *iend = e;
  }
  return got;
}

// chunk_of converts an unsigned chunk for sched_resolve (0: default).
std::int64_t chunk_of(ull chunk) noexcept {
  return chunk > static_cast<ull>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(chunk);
}

}  // namespace

// GOMP_loop_ull_doacross_static_start: GOMP_loop_doacross_static_start, unsigned counts.
RTPAR_OMP_EXPORT bool GOMP_loop_ull_doacross_static_start(unsigned ncounts, ull* counts, ull chunk,
                                                          ull* istart, ull* iend) {
  return start_ull_counts(ncounts, counts, sched_resolve(self(), kSchedStatic, chunk_of(chunk)),
                          istart, iend, nullptr, nullptr);
}

// GOMP_loop_ull_doacross_dynamic_start: GOMP_loop_doacross_dynamic_start, unsigned counts.
RTPAR_OMP_EXPORT bool GOMP_loop_ull_doacross_dynamic_start(unsigned ncounts, ull* counts, ull chunk,
                                                           ull* istart, ull* iend) {
  return start_ull_counts(ncounts, counts, sched_resolve(self(), kSchedDynamic, chunk_of(chunk)),
                          istart, iend, nullptr, nullptr);
}

// GOMP_loop_ull_doacross_guided_start: GOMP_loop_doacross_guided_start, unsigned counts.
RTPAR_OMP_EXPORT bool GOMP_loop_ull_doacross_guided_start(unsigned ncounts, ull* counts, ull chunk,
                                                          ull* istart, ull* iend) {
  return start_ull_counts(ncounts, counts, sched_resolve(self(), kSchedGuided, chunk_of(chunk)),
                          istart, iend, nullptr, nullptr);
}

// GOMP_loop_ull_doacross_runtime_start: GOMP_loop_doacross_runtime_start, unsigned counts.
RTPAR_OMP_EXPORT bool GOMP_loop_ull_doacross_runtime_start(unsigned ncounts, ull* counts,
                                                           ull* istart, ull* iend) {
  return start_ull_counts(ncounts, counts, sched_resolve(self(), 0, 0), istart, iend, nullptr,
                          nullptr);
}

// GOMP_loop_ull_doacross_start: GOMP_loop_doacross_start, unsigned counts.
RTPAR_OMP_EXPORT bool GOMP_loop_ull_doacross_start(unsigned ncounts, ull* counts, long sched,
                                                   ull chunk, ull* istart, ull* iend,
                                                   std::uintptr_t* reductions, void** mem) {
  return start_ull_counts(ncounts, counts,
                          sched_resolve(self(), static_cast<unsigned>(sched), chunk_of(chunk)),
                          istart, iend, reductions, mem);
}

// GOMP_doacross_ull_post: GOMP_doacross_post with unsigned indices.
RTPAR_OMP_EXPORT void GOMP_doacross_ull_post(ull* counts) {
  ThreadState& ts = self();
  const DoacrossState& d = ts.ws->loop.doacross;
  Flat f{d};
  for (unsigned k = 0; k < d.ndims; ++k) f.add(k, counts[k], false);
  post(*ts.ws, f);
}

// GOMP_doacross_ull_wait: GOMP_doacross_wait with unsigned indices.
RTPAR_OMP_EXPORT void GOMP_doacross_ull_wait(ull first, ...) {
  ThreadState& ts = self();
  const DoacrossState& d = ts.ws->loop.doacross;
  if (d.ndims == 0) return;
  Flat f{d};
  f.add(0, first, false);
  va_list ap;
  va_start(ap, first);
  for (unsigned k = 1; k < d.ndims; ++k) f.add(k, va_arg(ap, ull), false);
  va_end(ap);
  wait(ts, *ts.ws, f);
}

}  // namespace rtpar::omp
