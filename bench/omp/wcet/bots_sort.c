/* bots_sort.c — BOTS "sort" (Cilksort): a merge sort whose two halves are sorted as tasks above
 * a cutoff, the merge of the halves serial below the top (BOTS also splits the merge; ours
 * splits it once at the top level by a binary search), checked against a serial insertion-free
 * reference sort. */
#include <string.h>

#include "wcet_kernel.h"

/* kN ints; halves below kCutoff are sorted without tasks. */
enum { kN = 16384, kCutoff = 1024 };

/* input (unsorted), data (sorted in place by a run), tmp (scratch), reference (sorted serially). */
static int input[kN], data[kN], tmp[kN], reference[kN];

/* merge merges a[0..na) and b[0..nb) into out. */
static void merge(const int* a, int na, const int* b, int nb, int* out) {
  int i = 0, j = 0, k = 0;
  while (i < na && j < nb) out[k++] = b[j] < a[i] ? b[j++] : a[i++];
  while (i < na) out[k++] = a[i++];
  while (j < nb) out[k++] = b[j++];
}

/* lower_bound is the first index of a[0..n) whose value is >= v. */
static int lower_bound(const int* a, int n, int v) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (a[mid] < v) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/* msort sorts a[0..n) using t[0..n) as scratch; halves are tasks above the cutoff. */
static void msort(int* a, int* t, int n, int tasks) {
  if (n < 2) return;
  const int h = n / 2;
  if (tasks && n > kCutoff) {
#pragma omp task
    msort(a, t, h, 1);
#pragma omp task
    msort(a + h, t + h, n - h, 1);
#pragma omp taskwait
    /* Split the merge in two independent halves: the median of the left run and its rank in
     * the right run (Cilksort's parallel merge, one level). */
    const int m = h / 2, r = lower_bound(a + h, n - h, a[m]);
#pragma omp task
    merge(a, m, a + h, r, t);
#pragma omp task
    merge(a + m, h - m, a + h + r, n - h - r, t + m + r);
#pragma omp taskwait
  } else {
    msort(a, t, h, 0);
    msort(a + h, t + h, n - h, 0);
    merge(a, h, a + h, n - h, t);
  }
  memcpy(a, t, sizeof(int) * (size_t)n);
}

/* setup draws the input and sorts a copy serially: the reference. */
static void setup(void) {
  uint64_t s = 3;
  for (int i = 0; i < kN; ++i) input[i] = (int)((s = wk_mix(s)) % 1000000);
  memcpy(reference, input, sizeof input);
  msort(reference, tmp, kN, 0);
  memcpy(data, input, sizeof input);
}

/* run sorts data with tasks. */
static void run(void) {
#pragma omp parallel
#pragma omp single
  msort(data, tmp, kN, 1);
}

/* check compares with the reference, then restores the unsorted input for the next run. */
static int check(void) {
  const int ok = memcmp(data, reference, sizeof data) == 0;
  memcpy(data, input, sizeof input);
  return ok;
}

/* wk_sort is the sort row of Table 1. */
const WcetKernel wk_sort = {"sort", "BOTS", setup, run, check};
