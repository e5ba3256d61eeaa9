// api.cpp — the omp_* runtime library routines (OpenMP 5.0 §3). (First version: the team
// queries the core needs; H-api completes.)
#include "omp/runtime.hpp"

namespace rtpar::omp {

RTPAR_OMP_EXPORT int omp_get_thread_num() { return self().tid; }
RTPAR_OMP_EXPORT int omp_get_num_threads() { return self().team->nthreads; }
RTPAR_OMP_EXPORT int omp_get_level() { return self().team->level; }
RTPAR_OMP_EXPORT int omp_get_max_threads() { return self().task->icv.nthreads; }

}  // namespace rtpar::omp
