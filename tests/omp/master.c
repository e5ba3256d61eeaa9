/* master / masked: only thread 0 (or the filtered thread) runs the block, no implied barrier,
 * masked filter(n) for each n, and master inside nested and serialized regions. */
#include "omp_check.h"

int main(void) {
  PHASE("master");
  {
    int count = 0, who = -1;
#pragma omp parallel
    {
#pragma omp master
      {
        count++;
        who = omp_get_thread_num();
      }
    }
    CHECK(count == 1 && who == 0, "master ran %d times, by %d", count, who);
  }

  PHASE("masked");
  {
    int nt = omp_get_max_threads();
    for (int f = 0; f < nt + 1; f++) {
      int count = 0, who = -1;
#pragma omp parallel
      {
#pragma omp masked filter(f)
        {
          __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
          who = omp_get_thread_num();
        }
      }
      if (f < nt)
        CHECK(count == 1 && who == f, "masked filter(%d) ran %d times by %d", f, count, who);
      else
        CHECK(count == 0, "masked filter(%d) beyond the team ran %d times", f, count);
    }
    int count = 0;
#pragma omp parallel
    {
#pragma omp masked
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    }
    CHECK(count == 1, "masked without filter ran %d times", count);
  }

  PHASE("no barrier after master");
  {
    /* Thread 0 waits inside master until every other thread has passed it: only possible
     * when master has no barrier. */
    int passed = 0, ok = 1;
#pragma omp parallel
    {
      int nt = omp_get_num_threads();
#pragma omp master
      {
        double end = omp_get_wtime() + 5;
        while (__atomic_load_n(&passed, __ATOMIC_ACQUIRE) < nt - 1 && omp_get_wtime() < end)
          sched_yield();
        ok = __atomic_load_n(&passed, __ATOMIC_ACQUIRE) == nt - 1;
      }
      if (omp_get_thread_num() != 0) __atomic_add_fetch(&passed, 1, __ATOMIC_RELEASE);
    }
    CHECK(ok, "threads blocked behind master");
  }

  PHASE("master in serialized nested");
  {
    int count = 0;
#pragma omp parallel
    {
#pragma omp parallel
      {
#pragma omp master
        __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(count == omp_get_max_threads(), "nested master ran %d times", count);
  }
  return omp_check_result();
}
