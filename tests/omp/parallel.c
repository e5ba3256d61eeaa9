/* parallel: team sizes (default, num_threads, if, omp_set_num_threads), thread numbers,
 * omp_in_parallel, proc_bind clauses, many regions of changing sizes (team reuse), shared and
 * private data, and the join making every write of the region visible. */
#include "omp_check.h"

/* region_size: run one region of NT threads (0: no clause) and check its numbering. */
static void region_size(int nt, int expect) {
  int seen[64] = {0};
  int count = 0, size = -1;
  if (nt > 0) {
#pragma omp parallel num_threads(nt)
    {
      int id = omp_get_thread_num();
      if (id >= 0 && id < 64) __atomic_add_fetch(&seen[id], 1, __ATOMIC_RELAXED);
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp master
      size = omp_get_num_threads();
    }
  } else {
#pragma omp parallel
    {
      int id = omp_get_thread_num();
      if (id >= 0 && id < 64) __atomic_add_fetch(&seen[id], 1, __ATOMIC_RELAXED);
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp master
      size = omp_get_num_threads();
    }
  }
  CHECK(size == expect, "num_threads(%d): team of %d, expected %d", nt, size, expect);
  CHECK(count == expect, "num_threads(%d): %d threads ran, expected %d", nt, count, expect);
  for (int i = 0; i < expect && i < 64; i++)
    CHECK(seen[i] == 1, "num_threads(%d): thread %d ran %d times", nt, i, seen[i]);
}

int main(void) {
  int n = env_threads();
  if (n < 1) n = omp_get_max_threads();

  PHASE("outside");
  CHECK(omp_get_num_threads() == 1, "outside: %d threads", omp_get_num_threads());
  CHECK(omp_get_thread_num() == 0, "outside: thread %d", omp_get_thread_num());
  CHECK(!omp_in_parallel(), "outside: in parallel");
  CHECK(omp_get_max_threads() == n, "max threads %d, expected %d", omp_get_max_threads(), n);
  CHECK(omp_get_level() == 0, "level %d", omp_get_level());

  PHASE("default size");
  region_size(0, n);

  PHASE("num_threads");
  for (int t = 1; t <= 6; t++) region_size(t, t);

  PHASE("more threads than CPUs");
  region_size(16, 16);
  region_size(33, 33);
  region_size(2, 2);

  PHASE("if");
  {
    int size = -1, inpar = -1;
    int zero = 0;
#pragma omp parallel if (zero) num_threads(4)
    {
      size = omp_get_num_threads();
      inpar = omp_in_parallel();
      CHECK(omp_get_level() == 1, "if(0): level %d", omp_get_level());
      CHECK(omp_get_active_level() == 0, "if(0): active level %d", omp_get_active_level());
    }
    CHECK(size == 1, "if(0): team of %d", size);
    CHECK(inpar == 0, "if(0): omp_in_parallel %d", inpar);
    int one = 1, count = 0;
#pragma omp parallel if (one) num_threads(3)
    {
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
      CHECK(omp_in_parallel() == 1, "if(1): not in parallel");
      CHECK(omp_get_active_level() == 1, "if(1): active level %d", omp_get_active_level());
    }
    CHECK(count == 3, "if(1) num_threads(3): %d threads", count);
  }

  PHASE("omp_set_num_threads");
  omp_set_num_threads(3);
  CHECK(omp_get_max_threads() == 3, "after set(3): max threads %d", omp_get_max_threads());
  region_size(0, 3);
  region_size(2, 2);
  omp_set_num_threads(n);
  region_size(0, n);

  PHASE("proc_bind");
  {
    int c1 = 0, c2 = 0, c3 = 0, c4 = 0;
#pragma omp parallel proc_bind(close) num_threads(2)
    __atomic_add_fetch(&c1, 1, __ATOMIC_RELAXED);
#pragma omp parallel proc_bind(spread) num_threads(3)
    __atomic_add_fetch(&c2, 1, __ATOMIC_RELAXED);
#pragma omp parallel proc_bind(master) num_threads(2)
    __atomic_add_fetch(&c3, 1, __ATOMIC_RELAXED);
#pragma omp parallel proc_bind(primary) num_threads(4)
    __atomic_add_fetch(&c4, 1, __ATOMIC_RELAXED);
    CHECK(c1 == 2 && c2 == 3 && c3 == 2 && c4 == 4, "proc_bind teams %d %d %d %d", c1, c2, c3, c4);
  }

  PHASE("private/shared/firstprivate");
  {
    int shared_sum = 0, fp = 7, priv = -5;
    int arr[8] = {0};
#pragma omp parallel num_threads(4) firstprivate(fp) private(priv) shared(shared_sum, arr)
    {
      CHECK(fp == 7, "firstprivate %d", fp);
      priv = omp_get_thread_num();
      fp += priv;
      arr[priv] = priv + 1;
#pragma omp atomic
      shared_sum += fp;
    }
    CHECK(shared_sum == 28 + 6, "firstprivate sum %d", shared_sum);
    CHECK(fp == 7, "firstprivate leaked: %d", fp);
    for (int i = 0; i < 4; i++) CHECK(arr[i] == i + 1, "arr[%d] = %d", i, arr[i]);
  }

  PHASE("many regions");
  {
    long total = 0;
    for (int r = 0; r < 100; r++) {
      int t = 1 + r % 4;
      int c = 0;
#pragma omp parallel num_threads(t)
      { __atomic_add_fetch(&c, 1, __ATOMIC_RELAXED); }
      if (c != t) {
        CHECK(c == t, "region %d: %d threads, expected %d", r, c, t);
        break;
      }
      total += c;
    }
    CHECK(total == 100 / 4 * 10, "many regions total %ld", total);
  }

  PHASE("join visibility");
  {
    int data[4096];
    for (int r = 0; r < 100; r++) {
#pragma omp parallel num_threads(4)
      {
        int id = omp_get_thread_num(), nt = omp_get_num_threads();
        for (int i = id; i < 4096; i += nt) data[i] = r + i;
      }
      int bad = 0;
      for (int i = 0; i < 4096; i++) bad += data[i] != r + i;
      if (bad) {
        CHECK(bad == 0, "round %d: %d stale writes after the join", r, bad);
        break;
      }
    }
  }
  return omp_check_result();
}
