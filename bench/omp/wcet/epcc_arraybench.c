/* epcc_arraybench.c — EPCC "arraybench": the cost of data-sharing clauses on arrays — PRIVATE,
 * FIRSTPRIVATE and COPYPRIVATE of an array of kSize ints — each in a parallel region doing a
 * fixed amount of delay work split among the team (so the 2-thread column shares it). Checked by
 * the reduction of what each thread read from its copies. */
#include "wcet_kernel.h"

/* kSize ints per array, kRegions regions of kItems loop items, each a delay of kDelay. */
enum { kSize = 729, kRegions = 16, kItems = 16, kDelay = 300 };

/* source: the shared array each region copies. */
static int source[kSize];
/* total: the reduction of the last run; reference: what it must be. */
static long total, reference;

/* setup fills the shared array; the reference sums what run's three tests read. */
static void setup(void) {
  long s = 0;
  for (int i = 0; i < kSize; ++i) {
    source[i] = i % 7;
    s += source[i];
  }
  /* FIRSTPRIVATE reads source[i % kSize] per item; PRIVATE writes then reads item; COPYPRIVATE
   * reads the broadcast copy's sum once per thread per region — counted per item below. */
  long per_region = 0;
  for (int i = 0; i < kItems; ++i) per_region += source[i % kSize] + i + s;
  reference = (long)kRegions * per_region;
}

/* delay_item is the delay work of one loop item (its value is unused but kept). */
static long delay_item(void) { return wk_delay(kDelay) >= 0.0f ? 0 : 1000000; }

/* run times the three clauses, kRegions regions each third of the work. */
static void run(void) {
  long sum = 0;
  for (int r = 0; r < kRegions; ++r) {
    int arr[kSize];
    for (int i = 0; i < kSize; ++i) arr[i] = source[i];
    /* FIRSTPRIVATE: every thread gets a copy of arr. */
#pragma omp parallel firstprivate(arr) reduction(+ : sum)
    {
#pragma omp for schedule(static)
      for (int i = 0; i < kItems; ++i) sum += arr[i % kSize] + delay_item();
      /* PRIVATE: an uninitialised private array, written before it is read. */
      int priv[kSize];
#pragma omp for schedule(static)
      for (int i = 0; i < kItems; ++i) {
        priv[i] = i;
        sum += priv[i] + delay_item();
      }
      /* COPYPRIVATE: one thread computes the array's sum, broadcast to the team. */
      long all = 0;
#pragma omp single copyprivate(all)
      for (int i = 0; i < kSize; ++i) all += arr[i];
#pragma omp for schedule(static)
      for (int i = 0; i < kItems; ++i) sum += all + delay_item();
    }
  }
  total = sum;
}

/* check compares the reduction with the reference and clears it. */
static int check(void) {
  const int ok = total == reference;
  total = 0;
  return ok;
}

/* wk_arraybench is the ArrayBench row of Table 1. */
const WcetKernel wk_arraybench = {"ArrayBench", "EPCC", setup, run, check};
