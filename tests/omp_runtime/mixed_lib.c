/* mixed_lib.c — built with gcc -fopenmp (GCC's ABI, libgomp.so.1): reports what the runtime says
 * inside a region it opens itself, for mixed_abi.c. */
#include <omp.h>

/* gomp_inner opens a region of 2 threads and stores its level, its team size and the level and
 * thread number its first thread sees of the enclosing region. */
void gomp_inner(int* level, int* size, int* outer_tid) {
#pragma omp parallel num_threads(2)
  {
#pragma omp master
    {
      *level = omp_get_level();
      *size = omp_get_num_threads();
      *outer_tid = omp_get_ancestor_thread_num(1);
    }
  }
}

/* gomp_lock_set / gomp_lock_unset take a lock through GCC's ABI. */
void gomp_lock_set(omp_lock_t* l) { omp_set_lock(l); }
void gomp_lock_unset(omp_lock_t* l) { omp_unset_lock(l); }
