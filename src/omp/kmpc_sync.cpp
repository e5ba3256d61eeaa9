// kmpc_sync.cpp — synchronisation constructs in LLVM's OpenMP ABI: barrier, critical (with hints),
// single, master/masked, ordered, flush and copyprivate, each on the mechanism the GOMP entry
// points use (barrier.cpp, mutex.hpp, single.cpp, ordered.cpp, work_share.cpp).
//
// Differences of the ABI (LLVM's openmp runtime, kmp_csupport.cpp): `critical` passes a
// kmp_critical_name, eight zero-initialised words clang emits per name (the first is the mutex
// word: no allocation, no registry, as GCC's named critical); `single` is ended by the executing
// thread only (__kmpc_end_single) and its barrier is a separate __kmpc_barrier; copyprivate is one
// call made by every member after the single, with the barriers inside it. Lock hints are
// accepted and ignored (every critical section is the same futex-word mutex).
#include <atomic>

#include "omp/kmpc.hpp"
#include "omp/mutex.hpp"

namespace rtpar::omp::kmpc {

namespace {

// crit_word is the mutex word of a kmp_critical_name.
std::uint32_t* crit_word(critical_name* crit) noexcept {
  return reinterpret_cast<std::uint32_t*>(crit);
}

}  // namespace

// __kmpc_barrier is an explicit or implicit barrier of the caller's team.
RTPAR_OMP_EXPORT void __kmpc_barrier(ident* /*loc*/, kmp_int32 /*gtid*/) { team_barrier(self()); }

// __kmpc_critical enters the critical region named by `crit`.
RTPAR_OMP_EXPORT void __kmpc_critical(ident* /*loc*/, kmp_int32 /*gtid*/, critical_name* crit) {
  word_lock(crit_word(crit));
}

// __kmpc_critical_with_hint enters the critical region named by `crit` (the hint is ignored).
RTPAR_OMP_EXPORT void __kmpc_critical_with_hint(ident* /*loc*/, kmp_int32 /*gtid*/,
                                                critical_name* crit, std::uint32_t /*hint*/) {
  word_lock(crit_word(crit));
}

// __kmpc_end_critical leaves the critical region named by `crit`.
RTPAR_OMP_EXPORT void __kmpc_end_critical(ident* /*loc*/, kmp_int32 /*gtid*/, critical_name* crit) {
  word_unlock(crit_word(crit));
}

// __kmpc_single says whether the caller executes its next `single` construct.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_single(ident* /*loc*/, kmp_int32 /*gtid*/) {
  return single_claim(self()) ? 1 : 0;
}

// __kmpc_end_single ends the single construct the caller executed (nothing to release).
RTPAR_OMP_EXPORT void __kmpc_end_single(ident* /*loc*/, kmp_int32 /*gtid*/) {}

// __kmpc_master says whether the caller is its team's primary thread.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_master(ident* /*loc*/, kmp_int32 /*gtid*/) {
  return self().tid == 0 ? 1 : 0;
}

// __kmpc_end_master ends a master region (nothing to release).
RTPAR_OMP_EXPORT void __kmpc_end_master(ident* /*loc*/, kmp_int32 /*gtid*/) {}

// __kmpc_masked says whether the caller's thread number is the `filter` clause's.
RTPAR_OMP_EXPORT kmp_int32 __kmpc_masked(ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 filter) {
  return self().tid == filter ? 1 : 0;
}

// __kmpc_end_masked ends a masked region (nothing to release).
RTPAR_OMP_EXPORT void __kmpc_end_masked(ident* /*loc*/, kmp_int32 /*gtid*/) {}

// __kmpc_ordered enters an `ordered` region of the caller's chunk (waits for its turn).
RTPAR_OMP_EXPORT void __kmpc_ordered(ident* /*loc*/, kmp_int32 /*gtid*/) { ordered_enter(self()); }

// __kmpc_end_ordered leaves it; the token moves on when the chunk is done (ordered.cpp).
RTPAR_OMP_EXPORT void __kmpc_end_ordered(ident* /*loc*/, kmp_int32 /*gtid*/) {}

// __kmpc_flush is the `flush` directive.
RTPAR_OMP_EXPORT void __kmpc_flush(ident* /*loc*/) {
  // seq_cst: a flush orders every memory access of the thread before it against every one after
  // it (OpenMP 5.0 §2.17.8), which only a full fence does.
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

// __kmpc_copyprivate broadcasts the executing thread's `cpy_data` (didit != 0) to the other
// members, which copy from it with cpy_func(own, executing's). Every member calls it.
RTPAR_OMP_EXPORT void __kmpc_copyprivate(ident* /*loc*/, kmp_int32 /*gtid*/,
                                         std::size_t /*cpy_size*/, void* cpy_data,
                                         void (*cpy_func)(void*, void*), kmp_int32 didit) {
  ThreadState& ts = self();
  if (ts.team->nthreads == 1) return;
  if (ws_enter(ts)) ws_publish(ts);
  // plain: published by the barrier's release/acquire (barrier.cpp (1)).
  if (didit != 0) ts.ws->copyprivate = cpy_data;
  team_barrier(ts);
  if (didit == 0) cpy_func(cpy_data, ts.ws->copyprivate);
  // The second barrier keeps the executing thread's variables alive until every copy is made;
  // its last arriver frees the work share.
  team_barrier(ts, false, /*end_ws=*/true);
}

}  // namespace rtpar::omp::kmpc
