// kmpc_cancel.cpp — cancellation in LLVM's OpenMP ABI: __kmpc_cancel, __kmpc_cancellationpoint
// and __kmpc_cancel_barrier (active only when cancel-var is true, OMP_CANCELLATION), on the
// flags the GOMP side uses: the team's `cancelled` for `parallel` (barrier.cpp wakes and releases
// its waiters) and the taskgroup's for `taskgroup` (task_group.cpp).
//
// Loops and sections differ: clang's static loops and sections use no work share (kmpc_loop.cpp),
// so a `cancel for` / `cancel sections` sets a team flag, TeamState::kmp_cancel_ws, that every
// cancellation point of the construct and every dispatch_next read. As in LLVM's openmp runtime
// (kmp_cancel.cpp), the construct's closing __kmpc_cancel_barrier clears the request: between two
// barriers, so that every member has left the construct before it is cleared and none can enter
// the next one (and cancel it) before that.
#include "omp/kmpc.hpp"

namespace rtpar::omp::kmpc {

namespace {

// kCancelParallel .. kCancelTaskgroup are LLVM's kmp_cancel_kind_t values.
constexpr kmp_int32 kCancelParallel = 1;
constexpr kmp_int32 kCancelLoop = 2;
constexpr kmp_int32 kCancelSections = 3;
constexpr kmp_int32 kCancelTaskgroup = 4;

}  // namespace

// __kmpc_cancel activates cancellation of the innermost construct of kind `kind`; 1 tells the
// caller to leave the construct (0 when cancellation is off).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_cancel(ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 kind) {
  if (!globals().cancellation) return 0;
  ThreadState& ts = self();
  switch (kind) {
    case kCancelParallel:
      // release: what the cancelling thread wrote before is visible to members that see the flag
      // (their acquire loads, here and in barrier.cpp).
      ts.team->cancelled.store(true, std::memory_order_release);
      barrier_poke(*ts.team);
      return 1;
    case kCancelLoop:
    case kCancelSections:
      // release: as above (pairs with the acquire loads of __kmpc_cancellationpoint).
      ts.team->kmp_cancel_ws.store(true, std::memory_order_release);
      return 1;
    case kCancelTaskgroup:
      return taskgroup_cancel(ts) ? 1 : 0;
    default:
      return 0;
  }
}

// __kmpc_cancellationpoint says whether the innermost construct of kind `kind` (or the region)
// was cancelled: the caller then leaves it.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_cancellationpoint(ident* /*loc*/, kmp_int32 /*gtid*/,
                                                    kmp_int32 kind) {
  if (!globals().cancellation) return 0;
  ThreadState& ts = self();
  // acquire, all: pair with __kmpc_cancel's release stores.
  const bool region = ts.team->cancelled.load(std::memory_order_acquire);
  switch (kind) {
    case kCancelParallel:
      return region ? 1 : 0;
    case kCancelLoop:
    case kCancelSections:
      return region || ts.team->kmp_cancel_ws.load(std::memory_order_acquire) ? 1 : 0;
    case kCancelTaskgroup:
      return taskgroup_cancelled(ts) ? 1 : 0;
    default:
      return 0;
  }
}

// __kmpc_cancel_barrier is a barrier of a region with cancellation: 1 when the region was
// cancelled (the caller leaves it); clears a loop's or sections' cancellation (file comment).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_cancel_barrier(ident* /*loc*/, kmp_int32 /*gtid*/) {
  ThreadState& ts = self();
  if (!globals().cancellation) {
    team_barrier(ts);
    return 0;
  }
  if (team_barrier(ts, /*cancellable=*/true)) return 1;
  if (ts.tid == 0) {
    // relaxed: every member is past its last read of the flag for this construct (the barrier
    // above) and none reads it for the next before the barrier below publishes this store.
    ts.team->kmp_cancel_ws.store(false, std::memory_order_relaxed);
  }
  return team_barrier(ts, /*cancellable=*/true) ? 1 : 0;
}

}  // namespace rtpar::omp::kmpc
