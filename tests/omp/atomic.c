/* atomic: update/read/write/capture on int, long long, unsigned, float, double, and long double,
 * which GCC sends through GOMP_atomic_start/end, with seq_cst, and the
 * atomic lock used from many threads at once. */
#include <complex.h>
#include "omp_check.h"

int main(void) {
  const int N = 4000;
  PHASE("update");
  {
    int i32 = 0;
    long long i64 = 0;
    unsigned u = 0;
    float f = 0;
    double d = 0;
    int mul = 1;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
#pragma omp atomic
      i32 += 2;
#pragma omp atomic update
      i64 -= 3;
#pragma omp atomic
      u++;
#pragma omp atomic
      f += 0.5f;
#pragma omp atomic seq_cst
      d += 0.25;
      if (i % 500 == 0) {
#pragma omp atomic
        mul *= 2;
      }
    }
    CHECK(i32 == 2 * N && i64 == -3LL * N && u == (unsigned)N, "ints %d %lld %u", i32, i64, u);
    CHECK(f == 0.5f * N && d == 0.25 * N, "floats %g %g", (double)f, d);
    CHECK(mul == 256, "mul %d", mul);
  }

  PHASE("capture");
  {
    int x = 0;
    static int seen[4000];
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
      int v;
#pragma omp atomic capture
      v = x++;
      if (v >= 0 && v < N) __atomic_add_fetch(&seen[v], 1, __ATOMIC_RELAXED);
    }
    int bad = 0;
    for (int i = 0; i < N; i++) bad += seen[i] != 1;
    CHECK(x == N && bad == 0, "capture: x %d, %d values not seen once", x, bad);
    long long y = 0;
    long long tot = 0;
#pragma omp parallel for reduction(+ : tot)
    for (int i = 0; i < N; i++) {
      long long v;
#pragma omp atomic capture
      {
        y += 2;
        v = y;
      }
      tot += v;
    }
    CHECK(y == 2LL * N && tot == 2LL * N * (N + 1) / 2, "capture after %lld %lld", y, tot);
  }

  PHASE("read/write");
  {
    long shared = 0;
    int bad = 0;
#pragma omp parallel
    {
      for (int i = 0; i < 1000; i++) {
        long v;
#pragma omp atomic write
        shared = (long)omp_get_thread_num() * 0x100000001L;
#pragma omp atomic read
        v = shared;
        if (v % 0x100000001L != 0) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(bad == 0, "torn atomic reads: %d", bad);
  }

  PHASE("long double (GOMP_atomic_start)");
  {
    long double ld = 0;
    double _Complex z = 0;
    long double ldc = 0;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
#pragma omp atomic
      ld += 1.5L;
#pragma omp critical
      z += 1.0 + 1.0 * I;
    }
    CHECK(ld == 1.5L * N, "long double %Lg", ld);
    CHECK(creal(z) == N && cimag(z) == N, "complex %g %g", creal(z), cimag(z));
    long double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < N; i++) {
      long double v;
#pragma omp atomic capture
      v = ldc += 1.0L;
      sum += v;
    }
    CHECK(ldc == N && sum == (long double)N * (N + 1) / 2, "long double capture %Lg %Lg", ldc, sum);
  }
  return omp_check_result();
}
