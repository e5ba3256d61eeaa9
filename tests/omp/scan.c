/* scan: inclusive and exclusive scans (`reduction(inscan, ...)` + `#pragma omp scan`, which
 * GCC lowers to GOMP_loop_start with a scratch block), on for and parallel for, with +, * and
 * max, repeated in one region. */
#include "omp_check.h"

#define N 1000
static long a[N], b[N];

int main(void) {
  for (int i = 0; i < N; i++) a[i] = (i * 7) % 13 - 4;

  PHASE("inclusive");
  {
    long x = 0;
#pragma omp parallel for reduction(inscan, + : x)
    for (int i = 0; i < N; i++) {
      x += a[i];
#pragma omp scan inclusive(x)
      b[i] = x;
    }
    long e = 0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
      e += a[i];
      bad += b[i] != e;
    }
    CHECK(bad == 0 && x == e, "inclusive scan: %d wrong, total %ld vs %ld", bad, x, e);
  }

  PHASE("exclusive");
  {
    long x = 5;
#pragma omp parallel for reduction(inscan, + : x)
    for (int i = 0; i < N; i++) {
      b[i] = x;
#pragma omp scan exclusive(x)
      x += a[i];
    }
    long e = 5;
    int bad = 0;
    for (int i = 0; i < N; i++) {
      bad += b[i] != e;
      e += a[i];
    }
    CHECK(bad == 0 && x == e, "exclusive scan: %d wrong, total %ld vs %ld", bad, x, e);
  }

  PHASE("max scan in a region, repeated");
  {
    int bad = 0;
    long m;
#pragma omp parallel
    for (int r = 0; r < 5; r++) {
#pragma omp single
      m = -1000;
#pragma omp for reduction(inscan, max : m)
      for (int i = 0; i < N; i++) {
        m = (i * 31 + r) % 997 > m ? (i * 31 + r) % 997 : m;
#pragma omp scan inclusive(m)
        b[i] = m;
      }
#pragma omp single
      {
        long e = -1000;
        for (int i = 0; i < N; i++) {
          long v = (i * 31 + r) % 997;
          if (v > e) e = v;
          bad += b[i] != e;
        }
      }
    }
    CHECK(bad == 0, "max scans: %d wrong", bad);
  }

  PHASE("double scan");
  {
    double x = 0;
    static double d[N];
#pragma omp parallel for reduction(inscan, + : x)
    for (int i = 0; i < N; i++) {
      x += 0.5;
#pragma omp scan inclusive(x)
      d[i] = x;
    }
    int bad = 0;
    for (int i = 0; i < N; i++) bad += d[i] != 0.5 * (i + 1);
    CHECK(bad == 0, "double scan: %d wrong", bad);
  }
  return omp_check_result();
}
