/* fib: recursive task programs as the benchmark suites write them: fib without a cutoff,
 * nqueens with a task per placement, and a task-parallel merge sort; the results are exact. */
#include "omp_check.h"

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
#pragma omp task shared(b)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

static int ok_place(const char* rows, int n, int col) {
  for (int r = 0; r < n; r++) {
    int c = rows[r];
    if (c == col || c - col == n - r || col - c == n - r) return 0;
  }
  return 1;
}

static void queens(char* rows, int row, int n, long* count) {
  if (row == n) {
#pragma omp atomic
    (*count)++;
    return;
  }
  for (int col = 0; col < n; col++) {
    if (!ok_place(rows, row, col)) continue;
#pragma omp task firstprivate(col) shared(count)
    {
      char mine[16];
      memcpy(mine, rows, row);
      mine[row] = (char)col;
      queens(mine, row + 1, n, count);
    }
  }
#pragma omp taskwait
}

static void msort(int* a, int* tmp, int n) {
  if (n < 64) {
    for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
        int t = a[j];
        a[j] = a[j - 1];
        a[j - 1] = t;
      }
    return;
  }
  int h = n / 2;
#pragma omp task
  msort(a, tmp, h);
#pragma omp task
  msort(a + h, tmp + h, n - h);
#pragma omp taskwait
  int i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

int main(void) {
  PHASE("fib(22)");
  {
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(22);
    CHECK(r == 17711, "fib(22) = %ld", r);
  }
  PHASE("nqueens(8)");
  {
    long count = 0;
    char rows[16];
#pragma omp parallel
#pragma omp single
    queens(rows, 0, 8, &count);
    CHECK(count == 92, "nqueens(8) = %ld", count);
  }
  PHASE("merge sort");
  {
    enum { N = 100000 };
    int *a = malloc(N * sizeof *a), *t = malloc(N * sizeof *t);
    unsigned x = 12345;
    for (int i = 0; i < N; i++) a[i] = (int)((x = x * 1103515245u + 12345u) >> 8);
#pragma omp parallel
#pragma omp single
    msort(a, t, N);
    int bad = 0;
    for (int i = 1; i < N; i++) bad += a[i - 1] > a[i];
    CHECK(bad == 0, "merge sort: %d inversions", bad);
    free(a);
    free(t);
  }
  return omp_check_result();
}
