/* collapse: collapse(2) and collapse(3) loops with every schedule, negative strides, odd
 * bounds, a non-rectangular (triangular) nest, and collapsed ordered/lastprivate loops. */
#include "omp_check.h"

static int grid[40][30][5];

static void check_grid(const char* what, int ni, int nj, int nk) {
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 30; j++)
      for (int k = 0; k < 5; k++) {
        int e = (i < ni && j < nj && k < nk) ? 1 : 0;
        if (grid[i][j][k] != e) {
          CHECK(grid[i][j][k] == e, "%s: (%d,%d,%d) ran %d times", what, i, j, k, grid[i][j][k]);
          memset(grid, 0, sizeof grid);
          return;
        }
      }
  memset(grid, 0, sizeof grid);
}

#define C2(sched, what)                                                       \
  do {                                                                        \
    _Pragma(sched) for (int i = 0; i < 37; i++) for (int j = 29; j >= 0; j--) \
        __atomic_add_fetch(&grid[i][j][0], 1, __ATOMIC_RELAXED);              \
    check_grid(what, 37, 30, 1);                                              \
  } while (0)
#define C3(sched, what)                                                                       \
  do {                                                                                        \
    _Pragma(sched) for (int i = 39; i >= 0; i -= 2) for (int j = 0; j < 29;                   \
                                                         j += 3) for (long k = 4; k > 0; k--) \
        __atomic_add_fetch(&grid[i][j][k], 1, __ATOMIC_RELAXED);                              \
    for (int i = 0; i < 40; i++)                                                              \
      for (int j = 0; j < 30; j++)                                                            \
        for (int k = 0; k < 5; k++) {                                                         \
          int e = (i % 2 == 1 && j % 3 == 0 && j < 29 && k > 0) ? 1 : 0;                      \
          if (grid[i][j][k] != e) {                                                           \
            CHECK(grid[i][j][k] == e, "%s: (%d,%d,%d) ran %d times", what, i, j, k,           \
                  grid[i][j][k]);                                                             \
            i = 40, j = 30, k = 5;                                                            \
          }                                                                                   \
        }                                                                                     \
    memset(grid, 0, sizeof grid);                                                             \
  } while (0)

int main(void) {
  PHASE("collapse(2)");
  C2("omp parallel for collapse(2) schedule(static)", "c2 static");
  C2("omp parallel for collapse(2) schedule(static, 7)", "c2 static,7");
  C2("omp parallel for collapse(2) schedule(dynamic)", "c2 dynamic");
  C2("omp parallel for collapse(2) schedule(dynamic, 11)", "c2 dynamic,11");
  C2("omp parallel for collapse(2) schedule(guided)", "c2 guided");
  C2("omp parallel for collapse(2) schedule(runtime)", "c2 runtime");
  C2("omp parallel for collapse(2) schedule(auto)", "c2 auto");
  PHASE("collapse(3)");
  C3("omp parallel for collapse(3) schedule(static)", "c3 static");
  C3("omp parallel for collapse(3) schedule(dynamic, 2)", "c3 dynamic,2");
  C3("omp parallel for collapse(3) schedule(guided, 3)", "c3 guided,3");
  C3("omp parallel for collapse(3) schedule(runtime)", "c3 runtime");

  PHASE("collapse inside a region, nowait");
#pragma omp parallel
  {
#pragma omp for collapse(2) schedule(dynamic) nowait
    for (int i = 0; i < 10; i++)
      for (int j = 0; j < 10; j++) __atomic_add_fetch(&grid[i][j][0], 1, __ATOMIC_RELAXED);
#pragma omp for collapse(2) schedule(guided) nowait
    for (int i = 10; i < 20; i++)
      for (int j = 0; j < 10; j++) __atomic_add_fetch(&grid[i][j][0], 1, __ATOMIC_RELAXED);
  }
  check_grid("nowait pair", 20, 10, 1);

  PHASE("triangular");
  {
    long count = 0, sum = 0;
#pragma omp parallel for collapse(2) reduction(+ : count, sum)
    for (int i = 0; i < 50; i++)
      for (int j = i; j < 50; j++) {
        count++;
        sum += i * 100 + j;
      }
    long ec = 0, es = 0;
    for (int i = 0; i < 50; i++)
      for (int j = i; j < 50; j++) ec++, es += i * 100 + j;
    CHECK(count == ec && sum == es, "triangular: %ld/%ld, expected %ld/%ld", count, sum, ec, es);
    count = sum = 0;
#pragma omp parallel for collapse(2) reduction(+ : count, sum)
    for (int i = 0; i < 50; i++)
      for (int j = 0; j < i; j++) {
        count++;
        sum += i * 100 + j;
      }
    ec = es = 0;
    for (int i = 0; i < 50; i++)
      for (int j = 0; j < i; j++) ec++, es += i * 100 + j;
    CHECK(count == ec && sum == es, "lower triangle: %ld/%ld, expected %ld/%ld", count, sum, ec,
          es);
  }

  PHASE("collapse lastprivate/ordered");
  {
    int li = -1, lj = -1;
#pragma omp parallel for collapse(2) lastprivate(li, lj) schedule(dynamic)
    for (int i = 0; i < 13; i++)
      for (int j = 0; j < 7; j++) {
        li = i;
        lj = j;
      }
    CHECK(li == 12 && lj == 6, "collapse lastprivate %d %d", li, lj);
    int next = 0, bad = 0;
#pragma omp parallel for collapse(2) ordered schedule(dynamic, 2)
    for (int i = 0; i < 10; i++)
      for (int j = 0; j < 10; j++) {
#pragma omp ordered
        {
          if (i * 10 + j != next) bad++;
          next++;
        }
      }
    CHECK(bad == 0 && next == 100, "collapse ordered %d bad", bad);
  }
  return omp_check_result();
}
