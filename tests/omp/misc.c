/* misc: newer constructs GCC 12 lowers onto the same entry points: the `loop` construct,
 * `scope`, `parallel masked`, `for simd` and `parallel for simd`, `error at(execution)
 * severity(warning)` (GOMP_warning) and the `allocate` clause (GOMP_alloc/GOMP_free for a
 * non-default allocator). */
#include "omp_check.h"

int main(void) {
  PHASE("loop construct");
  {
    int hits[500] = {0};
#pragma omp parallel loop
    for (int i = 0; i < 500; i++) hits[i]++;
    long s = 0;
#pragma omp parallel
    {
#pragma omp loop reduction(+ : s) bind(parallel)
      for (int i = 0; i < 500; i++) s += i;
    }
    int bad = 0;
    for (int i = 0; i < 500; i++) bad += hits[i] != 1;
    CHECK(bad == 0 && s == 124750, "loop: %d wrong, sum %ld", bad, s);
  }

  PHASE("scope");
  {
    long s = 0;
    int cnt = 0;
#pragma omp parallel
    {
#pragma omp scope reduction(+ : s)
      s += 1;
#pragma omp scope private(cnt)
      {
        cnt = omp_get_thread_num();
        (void)cnt;
      }
    }
    CHECK(s == omp_get_max_threads(), "scope reduction %ld", s);
  }

  PHASE("parallel masked");
  {
    int count = 0;
#pragma omp parallel masked
    count++;
    CHECK(count == 1, "parallel masked ran %d times", count);
  }

  PHASE("simd");
  {
    float a[1024], b[1024];
    for (int i = 0; i < 1024; i++) a[i] = i, b[i] = 0;
#pragma omp parallel for simd
    for (int i = 0; i < 1024; i++) b[i] = 2 * a[i];
    double s = 0;
#pragma omp parallel
#pragma omp for simd reduction(+ : s) schedule(simd : dynamic, 4)
    for (int i = 0; i < 1024; i++) s += b[i];
    CHECK(s == 2.0 * 1023 * 1024 / 2, "simd sum %g", s);
  }

  PHASE("error directive");
  {
    int after = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp masked
      {
#pragma omp error at(execution) severity(warning) message("expected warning from tests/omp/misc")
        after = 1;
      }
    }
    CHECK(after == 1, "execution continues after a warning");
  }

  PHASE("allocate clause");
  {
    long s = 0;
    int x = 0;
#pragma omp parallel private(x) allocate(omp_default_mem_alloc : x) reduction(+ : s)
    {
      x = omp_get_thread_num() + 1;
      s += x;
    }
    int n = omp_get_max_threads();
    CHECK(s == (long)n * (n + 1) / 2, "allocate private %ld", s);
    /* A non-default allocator on an array makes GCC call GOMP_alloc / GOMP_free. */
    long s2 = 0;
    int arr[100];
#pragma omp parallel private(arr) allocate(omp_large_cap_mem_alloc : arr) reduction(+ : s2)
    {
      for (int i = 0; i < 100; i++) arr[i] = i + omp_get_thread_num();
      s2 += arr[99] - omp_get_thread_num();
    }
    CHECK(s2 == 99L * n, "allocate(omp_large_cap_mem_alloc) private array %ld", s2);
  }
  return omp_check_result();
}
