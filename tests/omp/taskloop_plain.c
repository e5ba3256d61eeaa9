/* taskloop_plain: taskloop without task reductions (taskloop.c has those, which the clang-built
 * runs cannot use yet): every iteration once, grainsize and num_tasks, nogroup with a taskwait,
 * if(0), firstprivate and lastprivate, a negative stride, unsigned and 64-bit induction
 * variables, nested in a single and from every member. */
#include "omp_check.h"

#define N 1000

int main(void) {
  static int hits[N];

  PHASE("every iteration once");
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(7)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskloop num_tasks(13)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskloop
    for (int i = N - 1; i >= 0; i -= 2) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != (i % 2 == 1 ? 3 : 2);
  CHECK(bad == 0, "%d iterations run a wrong number of times", bad);

  PHASE("nogroup, if(0), firstprivate, lastprivate");
  {
    long sum = 0, base = 5;
    int last = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop nogroup firstprivate(base) grainsize(10)
      for (int i = 0; i < 100; i++) __atomic_add_fetch(&sum, base + i, __ATOMIC_RELAXED);
#pragma omp taskwait
#pragma omp taskloop if (0) lastprivate(last)
      for (int i = 0; i < 50; i++) last = i;
    }
    CHECK(sum == 100 * 5 + 4950, "nogroup sum %ld", sum);
    CHECK(last == 49, "lastprivate %d", last);
  }

  PHASE("unsigned and 64-bit");
  {
    unsigned long long s1 = 0;
    long long s2 = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop grainsize(100)
      for (unsigned u = 10; u < 2010; u++) __atomic_add_fetch(&s1, u, __ATOMIC_RELAXED);
#pragma omp taskloop num_tasks(4)
      for (long long v = -3000000000LL; v < -2999999000LL; v += 3)
        __atomic_add_fetch(&s2, 1, __ATOMIC_RELAXED);
    }
    CHECK(s1 == 2000ULL * 10 + 1999ULL * 2000 / 2, "unsigned sum %llu", s1);
    CHECK(s2 == 334, "64-bit count %lld", s2);
  }

  PHASE("from every member");
  {
    long total = 0;
#pragma omp parallel reduction(+ : total)
    {
      long mine = 0;
#pragma omp taskloop grainsize(3) shared(mine)
      for (int i = 0; i < 60; i++) __atomic_add_fetch(&mine, 1, __ATOMIC_RELAXED);
      total += mine;
    }
    CHECK(total == 60L * omp_get_max_threads(), "total %ld", total);
  }
  return omp_check_result();
}
