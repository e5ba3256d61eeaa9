/* bots_fib.c — BOTS "fib": the n-th Fibonacci number by naive recursion, a task per call above a
 * cutoff (BOTS fib's "manual cutoff" variant), checked against the iterative value. */
#include "wcet_kernel.h"

/* kN: fib(kN); calls below kCutoff run without tasks. */
enum { kN = 25, kCutoff = 15 };

/* result of the last run; reference computed iteratively. */
static long result, reference;

/* fib_serial is plain recursion (below the cutoff, inside a task). */
static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

/* fib_task spawns both calls as tasks above the cutoff and waits for them. */
static long fib_task(int n) {
  if (n < kCutoff) return fib_serial(n);
  long a = 0, b = 0;
#pragma omp task shared(a)
  a = fib_task(n - 1);
#pragma omp task shared(b)
  b = fib_task(n - 2);
#pragma omp taskwait
  return a + b;
}

/* setup computes fib(kN) iteratively: the reference. */
static void setup(void) {
  long a = 0, b = 1;
  for (int i = 0; i < kN; ++i) {
    const long c = a + b;
    a = b;
    b = c;
  }
  reference = a;
}

/* run computes fib(kN) with tasks. */
static void run(void) {
#pragma omp parallel
#pragma omp single
  result = fib_task(kN);
}

/* check compares with the reference and clears the result. */
static int check(void) {
  const int ok = result == reference;
  result = 0;
  return ok;
}

/* wk_fib is the fib row of Table 1. */
const WcetKernel wk_fib = {"fib", "BOTS", setup, run, check};
