// kmpc_doacross.cpp — doacross loops in LLVM's OpenMP ABI (`ordered(n)` with depend(sink/source)):
// __kmpc_doacross_init / wait / post / fini, on doacross.cpp's mechanism (one "posted" word per
// iteration of dimension 0, waits asleep on the loop's signal word).
//
// Unlike GCC, clang starts the doacross bookkeeping separately from the loop: __kmpc_doacross_init
// comes before the loop's own __kmpc_for_static_init_* or __kmpc_dispatch_init_*, and
// __kmpc_doacross_fini after it. So the bookkeeping gets a work share of its own (the caller's
// next one; the loop takes the one after), remembered in ThreadState::kmp_doacross until fini
// leaves it. Since the loop's schedule is not known at init, its slots are one per iteration of
// dimension 0 (doacross.cpp's guided layout), right for every schedule. Wait and post get the
// iteration's values per dimension (dims[k].lo + i·dims[k].st); the layer turns them into logical
// indices with the bounds kept per thread in kmp_doacross_dims (grow-only: no allocation after
// the first loop of a thread with as many dimensions).
//
// Memory ordering: none here; doacross.cpp orders posts and waits, work_share.cpp publishes the
// bookkeeping.
#include "omp/kmpc.hpp"

namespace rtpar::omp::kmpc {

// dim is LLVM's kmp_dim: one dimension of a doacross loop, [lo, up] inclusive with stride st.
struct dim {
  kmp_int64 lo;
  kmp_int64 up;
  kmp_int64 st;
};

namespace {

// kMaxDims bounds the dimensions converted on the stack (as doacross.cpp's GOMP entry points).
constexpr int kMaxDims = 64;

// logical_of turns the values vec (one per dimension) into logical indices idx (negative: before
// the first iteration, so outside the iteration space).
void logical_of(const ThreadState& ts, const kmp_int64* vec, std::int64_t* idx, int n) noexcept {
  for (int k = 0; k < n; ++k) {
    const kmp_int64 lo = ts.kmp_doacross_dims[2 * k];
    const kmp_int64 st = ts.kmp_doacross_dims[2 * k + 1];
    if (st > 0) {
      idx[k] = vec[k] < lo ? -1
                           : static_cast<std::int64_t>(static_cast<kmp_uint64>(vec[k] - lo) /
                                                       static_cast<kmp_uint64>(st));
    } else if (st < 0) {
      idx[k] = vec[k] > lo ? -1
                           : static_cast<std::int64_t>(static_cast<kmp_uint64>(lo - vec[k]) /
                                                       (0 - static_cast<kmp_uint64>(st)));
    } else {
      idx[k] = -1;
    }
  }
}

}  // namespace

// __kmpc_doacross_init starts the bookkeeping of a doacross loop of num_dims dimensions in the
// caller's next work share (file comment).
RTPAR_OMP_EXPORT void __kmpc_doacross_init(ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 num_dims,
                                           const dim* dims) {
  ThreadState& ts = self();
  const int n = num_dims < 0 ? 0 : (num_dims > kMaxDims ? kMaxDims : num_dims);
  if (ts.kmp_doacross_dims.size() < static_cast<std::size_t>(2 * n)) {
    ts.kmp_doacross_dims.resize(static_cast<std::size_t>(2 * n));
  }
  std::uint64_t counts[kMaxDims];
  for (int k = 0; k < n; ++k) {
    const dim& d = dims[k];
    ts.kmp_doacross_dims[2 * k] = d.lo;
    ts.kmp_doacross_dims[2 * k + 1] = d.st;
    std::uint64_t c = 0;
    if (d.st > 0 && d.up >= d.lo) {
      c = static_cast<kmp_uint64>(d.up - d.lo) / static_cast<kmp_uint64>(d.st) + 1;
    } else if (d.st < 0 && d.lo >= d.up) {
      c = static_cast<kmp_uint64>(d.lo - d.up) / (0 - static_cast<kmp_uint64>(d.st)) + 1;
    }
    counts[k] = c;
  }
  if (loop_enter(ts)) {
    const LoopSched sched{kSchedGuided, 1};  // one slot per iteration of dimension 0
    const std::uint64_t n0 = n == 0 ? 0 : counts[0];
    loop_init(*ts.ws, ts.team->nthreads, 0, n0, 1, n0, sched, false);
    doacross_init(*ts.ws, ts.team->nthreads, static_cast<unsigned>(n), counts, sched);
    ws_publish(ts);
  }
  ts.kmp_doacross = ts.ws;
  ts.kmp_doacross_index = ts.ws_index;
}

// __kmpc_doacross_wait is `depend(sink: vec)`: waits until that iteration was posted.
RTPAR_OMP_EXPORT void __kmpc_doacross_wait(ident* /*loc*/, kmp_int32 /*gtid*/,
                                           const kmp_int64* vec) {
  ThreadState& ts = self();
  WorkShare* w = ts.kmp_doacross;
  if (w == nullptr) return;
  std::int64_t idx[kMaxDims];
  const int n = static_cast<int>(w->loop.doacross.ndims);
  logical_of(ts, vec, idx, n);
  doacross_wait_logical(ts, *w, idx);
}

// __kmpc_doacross_post is `depend(source)`: the caller finished iteration vec.
RTPAR_OMP_EXPORT void __kmpc_doacross_post(ident* /*loc*/, kmp_int32 /*gtid*/,
                                           const kmp_int64* vec) {
  ThreadState& ts = self();
  WorkShare* w = ts.kmp_doacross;
  if (w == nullptr) return;
  std::int64_t idx[kMaxDims];
  const int n = static_cast<int>(w->loop.doacross.ndims);
  logical_of(ts, vec, idx, n);
  doacross_post_logical(*w, idx);
}

// __kmpc_doacross_fini leaves the bookkeeping's work share (after the loop's own).
RTPAR_OMP_EXPORT void __kmpc_doacross_fini(ident* /*loc*/, kmp_int32 /*gtid*/) {
  ThreadState& ts = self();
  if (ts.kmp_doacross == nullptr) return;
  WorkShare* cur = ts.ws;
  const std::uint32_t cur_index = ts.ws_index;
  ts.ws = ts.kmp_doacross;
  ts.ws_index = ts.kmp_doacross_index;
  ws_leave(ts);
  ts.ws = cur;
  ts.ws_index = cur_index;
  ts.kmp_doacross = nullptr;
}

}  // namespace rtpar::omp::kmpc
