/* doacross: ordered(n) loops with depend(sink:) / depend(source) (GOMP_doacross_*): a 1-D
 * recurrence, a 2-D wavefront, sinks with several vectors and negative offsets, under static,
 * dynamic and guided schedules. */
#include "omp_check.h"

#define N 32
#define M 6
static long a[N];
static long g[M][M];

int main(void) {
  PHASE("1-D recurrence");
  const char* names[] = {"static", "static,1", "dynamic", "dynamic,3", "guided"};
  for (int s = 0; s < 5; s++) {
    memset(a, 0, sizeof a);
    a[0] = 1;
    switch (s) {
      case 0:
#pragma omp parallel for ordered(1) schedule(static)
        for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
          a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
        }
        break;
      case 1:
#pragma omp parallel for ordered(1) schedule(static, 1)
        for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
          a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
        }
        break;
      case 2:
#pragma omp parallel for ordered(1) schedule(dynamic)
        for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
          a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
        }
        break;
      case 3:
#pragma omp parallel for ordered(1) schedule(dynamic, 3)
        for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
          a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
        }
        break;
      case 4:
#pragma omp parallel for ordered(1) schedule(guided)
        for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
          a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
        }
        break;
    }
    int bad = 0;
    for (int i = 0; i < N; i++) bad += a[i] != i + 1;
    CHECK(bad == 0, "%s: %d wrong elements", names[s], bad);
  }

  PHASE("distance 2 and down-counting");
  {
    memset(a, 0, sizeof a);
    a[N - 1] = 1;
    a[N - 2] = 1;
#pragma omp parallel for ordered(1) schedule(dynamic, 2)
    for (int i = N - 3; i >= 0; i--) {
#pragma omp ordered depend(sink : i + 2) depend(sink : i + 1)
      a[i] = (a[i + 1] + a[i + 2]) % 1000003;
#pragma omp ordered depend(source)
    }
    long x = 1, y = 1;
    for (int i = N - 3; i >= 0; i--) {
      long z = (x + y) % 1000003;
      y = x;
      x = z;
    }
    CHECK(a[0] == x, "fibonacci-like down loop: %ld, expected %ld", a[0], x);
  }

  PHASE("2-D wavefront");
  for (int s = 0; s < 3; s++) {
    for (int i = 0; i < M; i++)
      for (int j = 0; j < M; j++) g[i][j] = (i == 0 || j == 0) ? 1 : 0;
    if (s == 0) {
#pragma omp parallel for ordered(2) schedule(static)
      for (int i = 1; i < M; i++)
        for (int j = 1; j < M; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
          g[i][j] = (g[i - 1][j] + g[i][j - 1]) % 1000003;
#pragma omp ordered depend(source)
        }
    } else if (s == 1) {
#pragma omp parallel for ordered(2) schedule(dynamic)
      for (int i = 1; i < M; i++)
        for (int j = 1; j < M; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
          g[i][j] = (g[i - 1][j] + g[i][j - 1]) % 1000003;
#pragma omp ordered depend(source)
        }
    } else {
#pragma omp parallel for collapse(2) ordered(2) schedule(static, 1)
      for (int i = 1; i < M; i++)
        for (int j = 1; j < M; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
          g[i][j] = (g[i - 1][j] + g[i][j - 1]) % 1000003;
#pragma omp ordered depend(source)
        }
    }
    static long e[M][M];
    for (int i = 0; i < M; i++)
      for (int j = 0; j < M; j++)
        e[i][j] = (i == 0 || j == 0) ? 1 : (e[i - 1][j] + e[i][j - 1]) % 1000003;
    int bad = 0;
    for (int i = 0; i < M; i++)
      for (int j = 0; j < M; j++) bad += g[i][j] != e[i][j];
    CHECK(bad == 0, "wavefront variant %d: %d wrong cells", s, bad);
  }

  PHASE("doacross in a region, repeated");
#pragma omp parallel
  for (int r = 0; r < 5; r++) {
#pragma omp single
    {
      memset(a, 0, sizeof a);
      a[0] = r;
    }
#pragma omp for ordered(1) schedule(dynamic)
    for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
      a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
    }
#pragma omp single
    CHECK(a[N - 1] == r + N - 1, "round %d: a[N-1] = %ld", r, a[N - 1]);
  }
  return omp_check_result();
}
