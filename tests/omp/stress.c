/* stress: many regions of changing team sizes, each mixing nowait loops, single, sections,
 * ordered, tasks, critical, copyprivate and barriers, to catch races in team reuse, the
 * work-share ring wrapping around and barrier generations. Every result is checked. */
#include "omp_check.h"

#define NI 37
int main(void) {
  PHASE("mixed rounds");
  int bad = 0;
  for (int r = 0; r < 100; r++) {
    int nt = 1 + (r * 7) % 5; /* 1..5 threads */
    int hits[4][NI];
    memset(hits, 0, sizeof hits);
    int singles = 0, secs = 0, order_bad = 0, tasks_done = 0, crit = 0, cp_bad = 0;
    long next = 0;
#pragma omp parallel num_threads(nt)
    {
#pragma omp for schedule(dynamic, 2) nowait
      for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[0][i], 1, __ATOMIC_RELAXED);
#pragma omp single nowait
      __atomic_add_fetch(&singles, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(guided) nowait
      for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[1][i], 1, __ATOMIC_RELAXED);
#pragma omp sections nowait
      {
#pragma omp section
        __atomic_add_fetch(&secs, 1, __ATOMIC_RELAXED);
#pragma omp section
        __atomic_add_fetch(&secs, 10, __ATOMIC_RELAXED);
      }
#pragma omp for schedule(runtime) nowait
      for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[2][i], 1, __ATOMIC_RELAXED);
#pragma omp for ordered schedule(dynamic)
      for (long i = 0; i < NI; i++) {
#pragma omp ordered
        {
          if (next != i) order_bad++;
          next = i + 1;
        }
      }
#pragma omp single
      for (int t = 0; t < 10; t++) {
#pragma omp task shared(tasks_done)
        __atomic_add_fetch(&tasks_done, 1, __ATOMIC_RELAXED);
      }
#pragma omp critical
      crit++;
      int v = -1;
#pragma omp single copyprivate(v)
      v = r;
      if (v != r) __atomic_add_fetch(&cp_bad, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(static, 3)
      for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[3][i], 1, __ATOMIC_RELAXED);
    }
    int ok = singles == 1 && secs == 11 && order_bad == 0 && next == NI && tasks_done == 10 &&
             crit == nt && cp_bad == 0;
    for (int k = 0; k < 4; k++)
      for (int i = 0; i < NI; i++) ok &= hits[k][i] == 1;
    if (!ok) {
      CHECK(ok,
            "round %d (%d threads): singles %d sections %d order %d/%ld tasks %d critical %d "
            "copyprivate %d",
            r, nt, singles, secs, order_bad, next, tasks_done, crit, cp_bad);
      if (++bad > 3) break;
    }
  }
  return omp_check_result();
}
