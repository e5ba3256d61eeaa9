/* loop_nowait: chains of nowait work shares (dynamic, guided, runtime loops, sections, single)
 * where one thread lags far behind the others, so the runtime must keep many work-share
 * instances alive at once and give every thread the same instance for the same construct. */
#include "omp_check.h"

#define NL 40
#define NI 64
static int hits[NL][NI];
static int singles[NL];
static int sections[NL][3];

int main(void) {
  for (int round = 0; round < 3; round++) {
    memset(hits, 0, sizeof hits);
    memset(singles, 0, sizeof singles);
    memset(sections, 0, sizeof sections);
    PHASE(round == 0 ? "lagging thread 0" : round == 1 ? "lagging last thread" : "no lag");
#pragma omp parallel
    {
      int me = omp_get_thread_num(), nt = omp_get_num_threads();
      int lagger = round == 0 ? 0 : round == 1 ? nt - 1 : -1;
      if (me == lagger && nt > 1) {
        /* Let the others run ahead through several nowait constructs. */
        double end = omp_get_wtime() + 0.02;
        while (omp_get_wtime() < end) sched_yield();
      }
      for (int l = 0; l < NL; l++) {
        switch (l % 5) {
          case 0:
#pragma omp for schedule(dynamic) nowait
            for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[l][i], 1, __ATOMIC_RELAXED);
            break;
          case 1:
#pragma omp for schedule(guided, 2) nowait
            for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[l][i], 1, __ATOMIC_RELAXED);
            break;
          case 2:
#pragma omp for schedule(runtime) nowait
            for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[l][i], 1, __ATOMIC_RELAXED);
            break;
          case 3:
#pragma omp single nowait
            __atomic_add_fetch(&singles[l], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(static) nowait
            for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[l][i], 1, __ATOMIC_RELAXED);
            break;
          case 4:
#pragma omp sections nowait
          {
#pragma omp section
            __atomic_add_fetch(&sections[l][0], 1, __ATOMIC_RELAXED);
#pragma omp section
            __atomic_add_fetch(&sections[l][1], 1, __ATOMIC_RELAXED);
#pragma omp section
            __atomic_add_fetch(&sections[l][2], 1, __ATOMIC_RELAXED);
          }
#pragma omp for schedule(dynamic, 3) nowait
            for (int i = 0; i < NI; i++) __atomic_add_fetch(&hits[l][i], 1, __ATOMIC_RELAXED);
            break;
        }
      }
    }
    for (int l = 0; l < NL; l++) {
      for (int i = 0; i < NI; i++)
        if (hits[l][i] != 1) {
          CHECK(hits[l][i] == 1, "loop %d iteration %d ran %d times", l, i, hits[l][i]);
          break;
        }
      if (l % 5 == 3) CHECK(singles[l] == 1, "single %d ran %d times", l, singles[l]);
      if (l % 5 == 4)
        for (int s = 0; s < 3; s++)
          CHECK(sections[l][s] == 1, "sections %d/%d ran %d times", l, s, sections[l][s]);
    }
  }

  PHASE("nowait loops in a loop");
  {
    long sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
      for (int r = 0; r < 300; r++) {
#pragma omp for schedule(dynamic, 1) nowait
        for (int i = 0; i < 5; i++) sum += i + r;
      }
    }
    CHECK(sum == 300L * 10 + 5L * (299L * 300 / 2), "sum %ld", sum);
  }
  return omp_check_result();
}
