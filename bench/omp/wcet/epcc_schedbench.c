/* epcc_schedbench.c — EPCC "schedbench": the cost of loop schedules — STATIC, STATIC with a
 * chunk, DYNAMIC and GUIDED — each a parallel loop of EPCC's delay per iteration, a fixed number
 * of iterations split among the team (so the 2-thread column shares the work). Checked by the
 * loops' reduction over the iterations. */
#include "wcet_kernel.h"

/* kIters iterations per loop, each a delay of kDelay. */
enum { kIters = 256, kDelay = 300 };

/* total: the reduction over the four loops of the last run. */
static long total;

/* item is one iteration: the delay, then its index (the delay's value is always positive). */
static long item(int i) { return wk_delay(kDelay) >= 0.0f ? i : 1000000; }

/* setup has nothing to precompute: the reference is 4 * sum(0..kIters). */
static void setup(void) {}

/* run: the four schedules in one parallel region. */
static void run(void) {
  long sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < kIters; ++i) sum += item(i);
#pragma omp for schedule(static, 1)
    for (int i = 0; i < kIters; ++i) sum += item(i);
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < kIters; ++i) sum += item(i);
#pragma omp for schedule(guided, 1)
    for (int i = 0; i < kIters; ++i) sum += item(i);
  }
  total = sum;
}

/* check compares the reduction with 4 * kIters * (kIters - 1) / 2 and clears it. */
static int check(void) {
  const int ok = total == 4L * kIters * (kIters - 1) / 2;
  total = 0;
  return ok;
}

/* wk_schedbench is the SchedBench row of Table 1. */
const WcetKernel wk_schedbench = {"SchedBench", "EPCC", setup, run, check};
