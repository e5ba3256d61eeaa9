/* taskbench.c — rtpar-bench-omp-task: explicit-task overhead (docs/bench-omp.md). Built once with
 * `gcc -fopenmp -O2`, run unchanged on every runtime.
 *
 *   FIB      fib(n) (default 30) with no cutoff: every call with n >= 2 spawns fib(n-1) as
 *            `#pragma omp task` and computes fib(n-2) itself, then taskwait (the shape of
 *            `rtpar bench steal`'s fib, so the numbers compare).
 *   FIB_FINAL fib(n) as FIB, but each task carries final(depth >= kFinalDepth): the tasks deeper
 *            than that are included (run at once by their creator, OpenMP 5.0 §2.10.1), the usual
 *            way a program cuts task creation off. It measures what an included task costs (issue
 *            33, item 3): nearly all of the 1,346,268 GOMP_task calls are included ones.
 *   NQUEENS  nqueens(n) (default 10), BOTS style with no cutoff: one task per column tried at every
 *            row, each with its own copy of the board, taskwait, then the counts summed.
 * A sample is the wall time of one repetition: one `parallel` + `single` region running the whole
 * computation. Each row also gives the serial time of the same recursion without tasks, the number
 * of tasks spawned, and per_task_ns = (median time - serial time) / tasks. The results are checked
 * (fib(30) = 832040 for FIB and FIB_FINAL, nqueens(10) = 724); a wrong one fails the program (exit 1). */
#include "omp_bench.h"

/* kBench names this program's rows. */
static const char* const kBench = "task";
/* kMaxQueens bounds the board (a row index per byte). */
#define kMaxQueens 16

/* fib_task is fib(n) with one task per call (no cutoff). */
static long fib_task(int n) {
  if (n < 2) return n;
  long a = 0;
#pragma omp task shared(a)
  a = fib_task(n - 1);
  const long b = fib_task(n - 2);
#pragma omp taskwait
  return a + b;
}

/* kFinalDepth is FIB_FINAL's cutoff: tasks at this depth or deeper are final (2^kFinalDepth
 * tasks at most are deferred, enough to keep every thread busy). */
#define kFinalDepth 8

/* fib_final is fib(n) at task depth `depth` with a final clause cutting deferral off. */
static long fib_final(int n, int depth) {
  if (n < 2) return n;
  long a = 0;
#pragma omp task shared(a) final(depth >= kFinalDepth)
  a = fib_final(n - 1, depth + 1);
  const long b = fib_final(n - 2, depth + 1);
#pragma omp taskwait
  return a + b;
}

/* fib_serial is the same recursion without tasks; *tasks counts the tasks fib_task would spawn. */
static long fib_serial(int n, long* tasks) {
  if (n < 2) return n;
  ++*tasks;
  return fib_serial(n - 1, tasks) + fib_serial(n - 2, tasks);
}

/* queen_ok says whether a queen at (row, board[row]) is safe from rows 0..row-1. */
static int queen_ok(int row, const char* board) {
  for (int r = 0; r < row; ++r) {
    const int d = board[row] - board[r];
    if (d == 0 || d == row - r || d == r - row) return 0;
  }
  return 1;
}

/* queens_task counts the solutions below a board with `row` queens placed: one task per column. */
static long queens_task(int n, int row, const char* board) {
  if (row == n) return 1;
  long counts[kMaxQueens] = {0};
  for (int col = 0; col < n; ++col) {
#pragma omp task firstprivate(col) shared(counts)
    {
      char b[kMaxQueens];
      memcpy(b, board, (size_t)row);
      b[row] = (char)col;
      if (queen_ok(row, b)) counts[col] = queens_task(n, row + 1, b);
    }
  }
#pragma omp taskwait
  long total = 0;
  for (int col = 0; col < n; ++col) total += counts[col];
  return total;
}

/* queens_serial is the same search without tasks; *tasks counts the tasks queens_task spawns. */
static long queens_serial(int n, int row, const char* board, long* tasks) {
  if (row == n) return 1;
  long total = 0;
  for (int col = 0; col < n; ++col) {
    ++*tasks;
    char b[kMaxQueens];
    memcpy(b, board, (size_t)row);
    b[row] = (char)col;
    if (queen_ok(row, b)) total += queens_serial(n, row + 1, b, tasks);
  }
  return total;
}

/* run_fib times one repetition: a region whose single thread computes fib(n) with tasks. */
static int64_t run_fib(int n, long* result) {
  long r = 0;
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
#pragma omp single
  r = fib_task(n);
  const int64_t t = ob_now_ns() - t0;
  *result = r;
  return t;
}

/* run_fib_final times one repetition of FIB_FINAL. */
static int64_t run_fib_final(int n, long* result) {
  long r = 0;
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
#pragma omp single
  r = fib_final(n, 0);
  const int64_t t = ob_now_ns() - t0;
  *result = r;
  return t;
}

/* run_queens times one repetition of nqueens(n) with tasks. */
static int64_t run_queens(int n, long* result) {
  long r = 0;
  const char board[kMaxQueens] = {0};
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
#pragma omp single
  r = queens_task(n, 0, board);
  const int64_t t = ob_now_ns() - t0;
  *result = r;
  return t;
}

/* Kernel is one row: its name, size, timed run and serial twin. */
typedef struct {
  const char* name;
  int n;
  int64_t (*run)(int n, long* result);
  long (*serial)(int n, long* tasks);
} Kernel;

/* fib_serial_entry and queens_serial_entry adapt the serial twins to Kernel. */
static long fib_serial_entry(int n, long* tasks) { return fib_serial(n, tasks); }
static long queens_serial_entry(int n, long* tasks) {
  const char board[kMaxQueens] = {0};
  return queens_serial(n, 0, board, tasks);
}

int main(int argc, char** argv) {
  ObOptions o = {.reps = 5, .inner = 1, .delay_iters = 1, .fib_n = 30, .queens_n = 10};
  ob_parse(argc, argv, &o);
  if (o.fib_n > 45 || o.queens_n < 1 || o.queens_n > kMaxQueens) {
    fprintf(stderr, "%s: --fib must be <= 45 and --queens in 1..%d\n", argv[0], kMaxQueens);
    return 2;
  }
  const Kernel kernels[] = {{"FIB", o.fib_n, run_fib, fib_serial_entry},
                            {"FIB_FINAL", o.fib_n, run_fib_final, fib_serial_entry},
                            {"NQUEENS", o.queens_n, run_queens, queens_serial_entry}};
  enum { kKernels = sizeof kernels / sizeof kernels[0] };
  double* samples = ob_alloc_samples(o.reps);
  double* scratch = ob_alloc_samples(o.reps);
  /* Serial references (median of reps) first, before any runtime thread exists to disturb them,
   * and the expected results and task counts with them. */
  double serials[kKernels] = {0};
  long task_counts[kKernels] = {0}, expects[kKernels] = {0};
  for (size_t k = 0; k < kKernels; ++k) {
    if (!ob_selected(&o, kernels[k].name)) continue;
    for (long r = 0; r < o.reps; ++r) {
      task_counts[k] = 0;
      const int64_t t0 = ob_now_ns();
      expects[k] = kernels[k].serial(kernels[k].n, &task_counts[k]);
      scratch[r] = (double)(ob_now_ns() - t0);
    }
    serials[k] = ob_median(scratch, o.reps);
  }
  long dummy = 0;
  run_fib(10, &dummy); /* starts the runtime's threads */
  ob_print_info(kBench, &o);
  int failed = 0;
  for (size_t k = 0; k < kKernels; ++k) {
    const Kernel* kn = &kernels[k];
    if (!ob_selected(&o, kn->name)) continue;
    const long tasks = task_counts[k], expect = expects[k];
    const double serial = serials[k];
    long result = 0;
    int ok = 1;
    for (long r = 0; r < o.reps; ++r) {
      samples[r] = (double)kn->run(kn->n, &result);
      ok = ok && result == expect;
      scratch[r] = samples[r];
    }
    const double med = ob_median(scratch, o.reps);
    char extra[320];
    snprintf(extra, sizeof extra,
             "\"n\":%d,\"result\":%ld,\"expected\":%ld,\"ok\":%s,\"tasks\":%ld,\"serial_ns\":%.0f,"
             "\"per_task_ns\":%.2f",
             kn->n, result, expect, ok ? "true" : "false", tasks, serial,
             tasks > 0 ? (med - serial) / (double)tasks : 0.0);
    ob_print_row(kBench, kn->name, samples, o.reps, extra);
    if (!ok) {
      fprintf(stderr, "%s: %s(%d) = %ld, expected %ld\n", argv[0], kn->name, kn->n, result, expect);
      failed = 1;
    }
  }
  free(samples);
  free(scratch);
  return failed;
}
