/* barrier: phases separated by barriers (no thread in phase k+1 while one is in phase k),
 * writes before a barrier visible after it, barriers in orphaned functions, flush with a
 * producer/consumer flag, and barriers in many consecutive regions. */
#include "omp_check.h"

static void orphan_barrier(int* arr, int phase) {
  int me = omp_get_thread_num(), nt = omp_get_num_threads();
  arr[me] = phase;
#pragma omp barrier
  for (int t = 0; t < nt; t++)
    if (arr[t] < phase)
      CHECK(arr[t] >= phase, "orphaned barrier: thread %d saw %d at %d", me, arr[t], phase);
#pragma omp barrier
}

int main(void) {
  PHASE("phases");
  {
    int phase_of[64] = {0};
    int bad = 0;
#pragma omp parallel
    {
      int me = omp_get_thread_num(), nt = omp_get_num_threads();
      for (int p = 1; p <= 200; p++) {
        __atomic_store_n(&phase_of[me], p, __ATOMIC_RELAXED);
#pragma omp barrier
        for (int t = 0; t < nt; t++) {
          int q = __atomic_load_n(&phase_of[t], __ATOMIC_RELAXED);
          if (q != p && q != p + 1) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        }
#pragma omp barrier
      }
    }
    CHECK(bad == 0, "%d phase violations", bad);
  }

  PHASE("visibility");
  {
    static int data[1 << 14];
    int bad = 0;
#pragma omp parallel
    {
      int me = omp_get_thread_num(), nt = omp_get_num_threads();
      for (int r = 0; r < 20; r++) {
        for (int i = me; i < (1 << 14); i += nt) data[i] = r * 7 + i;
#pragma omp barrier
        for (int i = (me * 97) % nt; i < (1 << 14); i += nt)
          if (data[i] != r * 7 + i) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp barrier
      }
    }
    CHECK(bad == 0, "%d stale values after barriers", bad);
  }

  PHASE("orphaned");
  {
    int arr[64] = {0};
#pragma omp parallel
    for (int p = 1; p < 50; p++) orphan_barrier(arr, p);
    orphan_barrier(arr, 1); /* no team: a no-op */
  }

  PHASE("flush");
  {
    int flag = 0, data = 0, got = -1;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_num_threads() == 2) {
        if (omp_get_thread_num() == 0) {
          data = 42;
#pragma omp flush
#pragma omp atomic write seq_cst
          flag = 1;
        } else {
          int f = 0;
          double end = omp_get_wtime() + 5;
          while (!f && omp_get_wtime() < end) {
#pragma omp atomic read seq_cst
            f = flag;
          }
#pragma omp flush
          got = data;
        }
      } else {
        got = 42;
      }
    }
    CHECK(got == 42, "flush: consumer read %d", got);
  }

  PHASE("many regions with barriers");
  {
    int total = 0;
    for (int r = 0; r < 100; r++) {
#pragma omp parallel reduction(+ : total)
      {
#pragma omp barrier
        total += 1;
#pragma omp barrier
      }
    }
    CHECK(total == 100 * omp_get_max_threads(), "total %d", total);
  }
  return omp_check_result();
}
