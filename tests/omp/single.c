/* single: exactly one thread per instance (many instances, with and without nowait, mixed),
 * the implicit barrier after single, copyprivate of scalars, structs, arrays and pointers,
 * and single without a team. */
#include "omp_check.h"

typedef struct {
  int a;
  double b;
  char name[24];
} rec_t;

int main(void) {
  PHASE("instances");
  {
    int count[300] = {0};
#pragma omp parallel
    for (int r = 0; r < 300; r++) {
      if (r % 3 == 0) {
#pragma omp single nowait
        __atomic_add_fetch(&count[r], 1, __ATOMIC_RELAXED);
      } else {
#pragma omp single
        __atomic_add_fetch(&count[r], 1, __ATOMIC_RELAXED);
      }
    }
    for (int r = 0; r < 300; r++)
      if (count[r] != 1) {
        CHECK(count[r] == 1, "single %d ran %d times", r, count[r]);
        break;
      }
  }

  PHASE("barrier after single");
  {
    int bad = 0;
    for (int r = 0; r < 50; r++) {
      int flag = 0;
#pragma omp parallel
      {
#pragma omp single
        {
          double end = omp_get_wtime() + 0.0005;
          while (omp_get_wtime() < end) {
          }
          __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
        }
        if (!__atomic_load_n(&flag, __ATOMIC_RELAXED))
          __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(bad == 0, "%d threads left a single before it finished", bad);
  }

  PHASE("copyprivate");
  {
    int bad = 0;
#pragma omp parallel
    {
      for (int r = 0; r < 100; r++) {
        int x;
        rec_t rec;
        long arr[5];
        int* ptr;
#pragma omp single copyprivate(x, rec, arr, ptr)
        {
          x = r * 3;
          rec.a = r;
          rec.b = r * 0.5;
          snprintf(rec.name, sizeof rec.name, "rec%d", r);
          for (int k = 0; k < 5; k++) arr[k] = r + k;
          ptr = &omp_check_failures;
        }
        char want[24];
        snprintf(want, sizeof want, "rec%d", r);
        int ok = x == r * 3 && rec.a == r && rec.b == r * 0.5 && !strcmp(rec.name, want) &&
                 arr[0] == r && arr[4] == r + 4 && ptr == &omp_check_failures;
        if (!ok) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(bad == 0, "copyprivate wrong %d times", bad);
  }

  PHASE("copyprivate of a threadprivate-like private");
  {
    int bad = 0;
#pragma omp parallel
    {
      int seed = omp_get_thread_num() + 100;
#pragma omp single copyprivate(seed)
      seed = 42;
      if (seed != 42) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
    CHECK(bad == 0, "copyprivate broadcast failed on %d threads", bad);
  }

  PHASE("no team");
  {
    int c = 0, v = 0;
#pragma omp single
    c++;
#pragma omp single copyprivate(v)
    v = 7;
    CHECK(c == 1 && v == 7, "single without a team %d %d", c, v);
  }
  return omp_check_result();
}
