/* bots_nqueens.c — BOTS "nqueens": the number of ways to place n queens on an n x n board, a
 * task per partial placement in the top rows (BOTS nqueens), checked against the known count. */
#include "wcet_kernel.h"

/* kN queens; the first kTaskRows rows are tasks. */
enum { kN = 10, kTaskRows = 3 };

/* result of the last run; reference counted serially. */
static long result, reference;

/* count_serial counts completions of a placement given as bit masks of the attacked columns and
 * diagonals (below the task rows). */
static long count_serial(int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == kN) return 1;
  long n = 0;
  unsigned free_ = ~(cols | d1 | d2) & ((1u << kN) - 1);
  while (free_) {
    const unsigned bit = free_ & -free_;
    free_ -= bit;
    n += count_serial(row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
  return n;
}

/* count_task spawns one task per legal queen of this row while row < kTaskRows. */
static long count_task(int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row >= kTaskRows) return count_serial(row, cols, d1, d2);
  long part[kN] = {0};
  unsigned free_ = ~(cols | d1 | d2) & ((1u << kN) - 1);
  for (int c = 0; c < kN; ++c) {
    const unsigned bit = 1u << c;
    if (!(free_ & bit)) continue;
#pragma omp task shared(part) firstprivate(c, bit)
    part[c] = count_task(row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
#pragma omp taskwait
  long n = 0;
  for (int c = 0; c < kN; ++c) n += part[c];
  return n;
}

/* setup counts serially: the reference (724 for n = 10). */
static void setup(void) { reference = count_serial(0, 0, 0, 0); }

/* run counts with tasks. */
static void run(void) {
#pragma omp parallel
#pragma omp single
  result = count_task(0, 0, 0, 0);
}

/* check compares with the reference (and the published count) and clears the result. */
static int check(void) {
  const int ok = result == reference && reference == 724;
  result = 0;
  return ok;
}

/* wk_nqueens is the NQueens row of Table 1. */
const WcetKernel wk_nqueens = {"NQueens", "BOTS", setup, run, check};
