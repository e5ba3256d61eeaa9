// kmpc_reduce.cpp — `reduction` clauses in LLVM's OpenMP ABI: __kmpc_reduce(_nowait) and
// __kmpc_end_reduce(_nowait).
//
// LLVM's openmp runtime (kmp_csupport.cpp, __kmpc_reduce_nowait) chooses a method per
// construct and tells the compiled code by the return value: 1 — combine your private copy into
// the shared variable yourself, inside a critical section, then call __kmpc_end_reduce*; 2 —
// combine with atomic updates; 0 — nothing left to do (a tree reduction already combined it).
// rtpar always answers 1, the critical method: each member takes the construct's lock word (the
// kmp_critical_name clang passes, mutex.hpp), combines, and releases it in end_reduce; the
// blocking form then waits at the team's barrier. A team of one combines without the lock.
// The tree and atomic methods are not provided (docs/openmp.md).
#include "omp/kmpc.hpp"
#include "omp/mutex.hpp"

namespace rtpar::omp::kmpc {

namespace {

// reduce_begin enters the critical method's section for the caller (not in a team of one).
kmp_int32 reduce_begin(critical_name* lck) {
  if (self().team->nthreads > 1) word_lock(reinterpret_cast<std::uint32_t*>(lck));
  return 1;
}

// reduce_end leaves it.
void reduce_end(const ThreadState& ts, critical_name* lck) {
  if (ts.team->nthreads > 1) word_unlock(reinterpret_cast<std::uint32_t*>(lck));
}

}  // namespace

// __kmpc_reduce_nowait begins a reduction without a barrier after it (returns 1: combine).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_reduce_nowait(ident* /*loc*/, kmp_int32 /*gtid*/,
                                                kmp_int32 /*num_vars*/, std::size_t /*reduce_size*/,
                                                void* /*reduce_data*/,
                                                void (* /*reduce_func*/)(void*, void*),
                                                critical_name* lck) {
  return reduce_begin(lck);
}

// __kmpc_end_reduce_nowait ends the caller's combination.
RTPAR_OMP_EXPORT void __kmpc_end_reduce_nowait(ident* /*loc*/, kmp_int32 /*gtid*/,
                                               critical_name* lck) {
  reduce_end(self(), lck);
}

// __kmpc_reduce begins a reduction followed by a barrier (returns 1: combine).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_reduce(ident* /*loc*/, kmp_int32 /*gtid*/, kmp_int32 /*num_vars*/,
                                         std::size_t /*reduce_size*/, void* /*reduce_data*/,
                                         void (* /*reduce_func*/)(void*, void*),
                                         critical_name* lck) {
  return reduce_begin(lck);
}

// __kmpc_end_reduce ends the caller's combination and waits for the team.
RTPAR_OMP_EXPORT void __kmpc_end_reduce(ident* /*loc*/, kmp_int32 /*gtid*/, critical_name* lck) {
  ThreadState& ts = self();
  reduce_end(ts, lck);
  team_barrier(ts);
}

}  // namespace rtpar::omp::kmpc
