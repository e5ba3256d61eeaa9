/* taskloop: every iteration once with default, grainsize and num_tasks partitions, negative
 * strides, unsigned long long loops, collapse(2), nogroup (+ taskwait), the implicit taskgroup,
 * reduction and in_reduction, lastprivate, firstprivate, if(0), final, priority, and taskloops
 * created by every thread. */
#include <limits.h>
#include "omp_check.h"

#define N 2000
static int hits[N];

static int verify(const char* what) {
  int bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != 1;
  CHECK(bad == 0, "%s: %d iterations not run exactly once", what, bad);
  memset(hits, 0, sizeof hits);
  return bad;
}

int main(void) {
  PHASE("partitions");
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    verify("default");
#pragma omp taskloop grainsize(7)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    verify("grainsize(7)");
#pragma omp taskloop grainsize(5000)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    verify("grainsize larger than the loop");
#pragma omp taskloop num_tasks(13)
    for (int i = N - 1; i >= 0; i--) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    verify("num_tasks(13) down");
#pragma omp taskloop num_tasks(5000)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    verify("num_tasks more than iterations");
#pragma omp taskloop grainsize(3)
    for (long i = 1; i < 3 * N; i += 3) __atomic_add_fetch(&hits[i / 3], 1, __ATOMIC_RELAXED);
    verify("stride 3");
#pragma omp taskloop num_tasks(4)
    for (unsigned long long i = ULLONG_MAX - N; i < ULLONG_MAX; i++)
      __atomic_add_fetch(&hits[i - (ULLONG_MAX - N)], 1, __ATOMIC_RELAXED);
    verify("ull near ULLONG_MAX");
#pragma omp taskloop grainsize(10)
    for (unsigned long long i = N; i > 0; i--)
      __atomic_add_fetch(&hits[i - 1], 1, __ATOMIC_RELAXED);
    verify("ull down");
#pragma omp taskloop collapse(2) grainsize(9)
    for (int i = 0; i < 40; i++)
      for (int j = 0; j < 50; j++) __atomic_add_fetch(&hits[i * 50 + j], 1, __ATOMIC_RELAXED);
    verify("collapse(2)");
#pragma omp taskloop if (0)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    verify("if(0)");
#pragma omp taskloop final(1)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    verify("final(1)");
#pragma omp taskloop priority(3) untied mergeable
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    verify("priority untied mergeable");
  }

  PHASE("implicit taskgroup and nogroup");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop grainsize(50)
      for (int i = 0; i < N; i++) {
        double end = omp_get_wtime() + 0.000002;
        while (omp_get_wtime() < end) {
        }
        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
      }
      /* The taskloop's implicit taskgroup has completed every task here. */
      for (int i = 0; i < N; i++) bad += hits[i] != 1;
      memset(hits, 0, sizeof hits);
#pragma omp taskloop nogroup grainsize(100)
      for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskwait
      verify("nogroup + taskwait");
    }
    CHECK(bad == 0, "taskloop returned before its tasks finished (%d)", bad);
  }

  PHASE("reduction / lastprivate / firstprivate");
  {
    long sum = 0, prod = 1;
    int last = -1;
    int fp = 5, fp_bad = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop reduction(+ : sum) grainsize(16)
      for (int i = 0; i < N; i++) sum += i;
#pragma omp taskloop reduction(* : prod) num_tasks(7)
      for (int i = 0; i < 20; i++) prod *= (i % 2) + 1;
#pragma omp taskloop lastprivate(last) grainsize(33)
      for (int i = 0; i < N; i++) last = i;
#pragma omp taskloop firstprivate(fp) shared(fp_bad)
      for (int i = 0; i < 100; i++) {
        if (fp < 5) __atomic_add_fetch(&fp_bad, 1, __ATOMIC_RELAXED);
        fp++;
      }
    }
    CHECK(sum == (long)N * (N - 1) / 2, "reduction sum %ld", sum);
    CHECK(prod == 1024, "reduction prod %ld", prod);
    CHECK(last == N - 1, "lastprivate %d", last);
    CHECK(fp_bad == 0 && fp == 5, "firstprivate %d %d", fp_bad, fp);
  }

  PHASE("in_reduction within a taskgroup");
  {
    long sum = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : sum)
      {
#pragma omp taskloop in_reduction(+ : sum) grainsize(100)
        for (int i = 0; i < N; i++) sum += i;
#pragma omp task in_reduction(+ : sum)
        sum += 1000000;
      }
    }
    CHECK(sum == (long)N * (N - 1) / 2 + 1000000, "in_reduction sum %ld", sum);
  }

  PHASE("taskloop from every thread");
  {
    long sum = 0;
#pragma omp parallel
    {
      /* Each thread's taskloop reduces into its own variable (taskloops of several threads
       * combining into one shared original would race), then adds it to the shared sum. */
      long mine = 0;
#pragma omp taskloop reduction(+ : mine) grainsize(10)
      for (int i = 0; i < 100; i++) mine += i;
#pragma omp atomic
      sum += mine;
    }
    CHECK(sum == 4950L * omp_get_max_threads(), "per-thread taskloops %ld", sum);
  }

  PHASE("parallel master taskloop");
  {
    long sum = 0;
#pragma omp parallel master taskloop reduction(+ : sum)
    for (int i = 0; i < N; i++) sum += 2 * i;
    CHECK(sum == (long)N * (N - 1), "parallel master taskloop %ld", sum);
  }
  return omp_check_result();
}
