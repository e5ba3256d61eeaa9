// kmpc_reduce.cpp — `reduction` clauses in LLVM's OpenMP ABI: __kmpc_reduce(_nowait) and
// __kmpc_end_reduce(_nowait).
//
// LLVM's openmp runtime (kmp_csupport.cpp, __kmpc_reduce_nowait) chooses a method per
// construct and tells the compiled code by the return value: 1 — combine your private copy into
// the shared variable yourself, inside a critical section, then call __kmpc_end_reduce*; 2 —
// combine with atomic updates (clang then calls __kmpc_end_reduce for the blocking form only);
// 0 — nothing left to do (a tree reduction already combined it). rtpar answers 2 when clang
// marked the construct as combinable with atomics (ident flag KMP_IDENT_ATOMIC_REDUCE; LLVM's
// runtime makes the same choice for small teams), and 1, the critical method, otherwise: each
// member takes the construct's lock word (the kmp_critical_name clang passes, mutex.hpp), combines,
// and releases it in end_reduce. The blocking form then waits at the team's barrier. A team of one
// combines without the lock. The tree method is not used.
#include "omp/kmpc.hpp"
#include "omp/mutex.hpp"

namespace rtpar::omp::kmpc {

namespace {

// kIdentAtomicReduce is LLVM's KMP_IDENT_ATOMIC_REDUCE: clang can combine with atomics.
constexpr kmp_int32 kIdentAtomicReduce = 0x10;

// reduce_begin chooses the caller's method (file comment) and, for the critical method in a team
// of more than one, takes the lock word.
kmp_int32 reduce_begin(const ident* loc, critical_name* lck) {
  ThreadState& ts = self();
  ts.kmp_reduce_locked = false;
  if (ts.team->nthreads == 1) return 1;
  if (loc != nullptr && (loc->flags & kIdentAtomicReduce) != 0) return 2;
  word_lock(reinterpret_cast<std::uint32_t*>(lck));
  ts.kmp_reduce_locked = true;
  return 1;
}

// reduce_end releases the lock word if reduce_begin took it.
void reduce_end(ThreadState& ts, critical_name* lck) {
  if (ts.kmp_reduce_locked) {
    ts.kmp_reduce_locked = false;
    word_unlock(reinterpret_cast<std::uint32_t*>(lck));
  }
}

}  // namespace

// __kmpc_reduce_nowait begins a reduction without a barrier after it (returns the method).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_reduce_nowait(ident* loc, kmp_int32 /*gtid*/,
                                                kmp_int32 /*num_vars*/, std::size_t /*reduce_size*/,
                                                void* /*reduce_data*/,
                                                void (* /*reduce_func*/)(void*, void*),
                                                critical_name* lck) {
  return reduce_begin(loc, lck);
}

// __kmpc_end_reduce_nowait ends the caller's combination (critical method only).
RTPAR_OMP_EXPORT void __kmpc_end_reduce_nowait(ident* /*loc*/, kmp_int32 /*gtid*/,
                                               critical_name* lck) {
  reduce_end(self(), lck);
}

// __kmpc_reduce begins a reduction followed by a barrier (returns the method).
RTPAR_OMP_EXPORT kmp_int32 __kmpc_reduce(ident* loc, kmp_int32 /*gtid*/, kmp_int32 /*num_vars*/,
                                         std::size_t /*reduce_size*/, void* /*reduce_data*/,
                                         void (* /*reduce_func*/)(void*, void*),
                                         critical_name* lck) {
  return reduce_begin(loc, lck);
}

// __kmpc_end_reduce ends the caller's combination and waits for the team.
RTPAR_OMP_EXPORT void __kmpc_end_reduce(ident* /*loc*/, kmp_int32 /*gtid*/, critical_name* lck) {
  ThreadState& ts = self();
  reduce_end(ts, lck);
  team_barrier(ts);
}

}  // namespace rtpar::omp::kmpc
