/* sections: each section exactly once, more and fewer sections than threads, parallel
 * sections, nowait, private/firstprivate/lastprivate/reduction, sections repeated in one
 * region, and orphaned sections without a team. */
#include "omp_check.h"

static int ran[12];
static int by[12];

static void orphaned(void) {
#pragma omp sections
  {
#pragma omp section
    __atomic_add_fetch(&ran[0], 1, __ATOMIC_RELAXED);
#pragma omp section
    __atomic_add_fetch(&ran[1], 1, __ATOMIC_RELAXED);
  }
}

int main(void) {
  PHASE("parallel sections, 10 sections");
#pragma omp parallel sections
  {
#pragma omp section
    ran[0]++, by[0] = omp_get_thread_num();
#pragma omp section
    ran[1]++, by[1] = omp_get_thread_num();
#pragma omp section
    ran[2]++, by[2] = omp_get_thread_num();
#pragma omp section
    ran[3]++, by[3] = omp_get_thread_num();
#pragma omp section
    ran[4]++, by[4] = omp_get_thread_num();
#pragma omp section
    ran[5]++, by[5] = omp_get_thread_num();
#pragma omp section
    ran[6]++, by[6] = omp_get_thread_num();
#pragma omp section
    ran[7]++, by[7] = omp_get_thread_num();
#pragma omp section
    ran[8]++, by[8] = omp_get_thread_num();
#pragma omp section
    ran[9]++, by[9] = omp_get_thread_num();
  }
  for (int i = 0; i < 10; i++)
    CHECK(ran[i] == 1 && by[i] >= 0 && by[i] < omp_get_max_threads(), "section %d ran %d (by %d)",
          i, ran[i], by[i]);
  memset(ran, 0, sizeof ran);

  PHASE("one section");
#pragma omp parallel sections num_threads(4)
  { ran[0]++; }
  CHECK(ran[0] == 1, "single-section construct ran %d", ran[0]);
  ran[0] = 0;

  PHASE("repeated sections with nowait");
  {
    int count[3] = {0, 0, 0};
#pragma omp parallel
    for (int r = 0; r < 100; r++) {
#pragma omp sections nowait
      {
#pragma omp section
        __atomic_add_fetch(&count[0], 1, __ATOMIC_RELAXED);
#pragma omp section
        __atomic_add_fetch(&count[1], 1, __ATOMIC_RELAXED);
#pragma omp section
        __atomic_add_fetch(&count[2], 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(count[0] == 100 && count[1] == 100 && count[2] == 100, "repeated: %d %d %d", count[0],
          count[1], count[2]);
  }

  PHASE("clauses");
  {
    int fp = 3, lp = 0, red = 0, pr = 99;
#pragma omp parallel
    {
#pragma omp sections firstprivate(fp) lastprivate(lp) reduction(+ : red) private(pr)
      {
#pragma omp section
        {
          pr = 1;
          red += fp + pr;
          lp = 10;
        }
#pragma omp section
        {
          pr = 2;
          red += fp + pr;
          lp = 20;
        }
#pragma omp section
        {
          pr = 3;
          red += fp + pr;
          lp = 30;
        }
      }
    }
    CHECK(red == 15 && lp == 30 && fp == 3, "clauses: red %d lp %d fp %d", red, lp, fp);
  }

  PHASE("orphaned");
#pragma omp parallel
  orphaned();
  CHECK(ran[0] == 1 && ran[1] == 1, "orphaned in region: %d %d", ran[0], ran[1]);
  orphaned();
  CHECK(ran[0] == 2 && ran[1] == 2, "orphaned without a team: %d %d", ran[0], ran[1]);

  PHASE("implicit barrier");
  {
    int flag = 0, bad = 0;
#pragma omp parallel
    {
#pragma omp sections
      {
#pragma omp section
        __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
      }
      if (!__atomic_load_n(&flag, __ATOMIC_RELAXED)) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
    CHECK(bad == 0, "%d threads passed the sections barrier early", bad);
  }
  return omp_check_result();
}
