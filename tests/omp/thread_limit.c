/* thread_limit: OMP_THREAD_LIMIT bounds the threads of the contention group even when nested
 * regions start concurrently (each member of an outer team opens its own inner team at once):
 * the count of threads inside the innermost regions never exceeds the limit. Run with
 * OMP_THREAD_LIMIT=5. */
#include "omp_check.h"

int main(void) {
  const int limit = omp_get_thread_limit();
  CHECK(limit == 5, "omp_get_thread_limit %d (run with OMP_THREAD_LIMIT=5)", limit);
  omp_set_dynamic(0);
  omp_set_max_active_levels(3);

  PHASE("concurrent nested regions");
  int inside = 0, peak = 0;
  for (int r = 0; r < 100; r++) {
#pragma omp parallel num_threads(5)
#pragma omp parallel num_threads(5)
#pragma omp parallel num_threads(2)
    {
      int v = __atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED);
      int p = __atomic_load_n(&peak, __ATOMIC_RELAXED);
      while (v > p &&
             !__atomic_compare_exchange_n(&peak, &p, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      }
      usleep(200);
      __atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK(peak <= limit, "%d threads at once with thread limit %d", peak, limit);

  PHASE("the limit is released after the regions");
  int n = 0;
#pragma omp parallel num_threads(5)
#pragma omp single
  n = omp_get_num_threads();
  CHECK(n == 5, "team of %d after the nested regions", n);
  return omp_check_result();
}
