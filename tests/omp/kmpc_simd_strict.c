/* kmpc_simd_strict: LLVM-ABI schedules clang asks for with modifiers, called by hand as LLVM's
 * runtime tests do: the simd schedules (kmp_sch_static_balanced_chunked through
 * __kmpc_for_static_init_4 and __kmpc_dispatch_init_4, kmp_sch_guided_simd, and
 * kmp_sch_runtime_simd under each run-sched-var) give chunks that are multiples of the simd width
 * but the last, and __kmpc_taskloop_5's `strict` grainsize gives chunks of exactly that many
 * iterations but the last. Built with clang only. */
#include <string.h>

#include "omp_check.h"

typedef struct ident ident_t;
typedef struct kmp_task kmp_task_t;
typedef int (*kmp_routine_t)(int, kmp_task_t*);
struct kmp_task {
  void* shareds;
  kmp_routine_t routine;
  int part_id;
  unsigned long long lb, ub;  // the taskloop's bounds (the "private" part of the task)
  long long st;
  int last;
};
int __kmpc_global_thread_num(ident_t*);
void __kmpc_barrier(ident_t*, int);
void __kmpc_for_static_init_4(ident_t*, int, int, int*, int*, int*, int*, int, int);
void __kmpc_for_static_fini(ident_t*, int);
void __kmpc_dispatch_init_4(ident_t*, int, int, int, int, int, int);
int __kmpc_dispatch_next_4(ident_t*, int, int*, int*, int*, int*);
kmp_task_t* __kmpc_omp_task_alloc(ident_t*, int, int, size_t, size_t, kmp_routine_t);
void __kmpc_taskloop_5(ident_t*, int, kmp_task_t*, int, unsigned long long*, unsigned long long*,
                       long long, int, int, unsigned long long, int, void*);

enum { kBalancedChunked = 45, kGuidedSimd = 46, kRuntimeSimd = 47 };
#define WIDTH 4
#define N 203

static int hits[N];
static int bad_chunks;

/* run_dispatch runs [0, N) with schedule `sched` and chunk argument `chunk` on every thread of
 * the team; each thread's chunks but the one holding the last iteration must be multiples of
 * `unit`, and a thread's chunks must not grow (guided). */
static void run_dispatch(int sched, int chunk, int unit) {
  int gtid = __kmpc_global_thread_num(NULL);
  int last = 0, lb = 0, ub = 0, st = 0, prev = N + 1;
  __kmpc_dispatch_init_4(NULL, gtid, sched, 0, N - 1, 1, chunk);
  while (__kmpc_dispatch_next_4(NULL, gtid, &last, &lb, &ub, &st)) {
    int size = ub - lb + 1;
    if ((!last && size % unit != 0) || size > prev + 1 || st != 1)
      __atomic_add_fetch(&bad_chunks, 1, __ATOMIC_RELAXED);
    prev = size;
    for (int i = lb; i <= ub; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
  }
  __kmpc_barrier(NULL, gtid);
}

static void check_hits(const char* what) {
  for (int i = 0; i < N; i++)
    CHECK(hits[i] == 1, "%s: iteration %d ran %d times", what, i, hits[i]);
  CHECK(bad_chunks == 0, "%s: %d chunks not a multiple of the simd width", what, bad_chunks);
  memset(hits, 0, sizeof hits);
  bad_chunks = 0;
}

static int task_count, iter_count, last_seen;

static int loop_body(int gtid, kmp_task_t* t) {
  (void)gtid;
  int n = 0;
  for (unsigned long long i = t->lb; i <= t->ub; i += (unsigned long long)t->st) n++;
  __atomic_add_fetch(&task_count, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&iter_count, n, __ATOMIC_RELAXED);
  if (n != 6 && !t->last) __atomic_add_fetch(&bad_chunks, 1, __ATOMIC_RELAXED);
  if (t->last) __atomic_store_n(&last_seen, (int)t->ub, __ATOMIC_RELAXED);
  return 0;
}

static void loop_dup(kmp_task_t* dst, kmp_task_t* src, int last) {
  (void)src;
  dst->last = last;
}

int main(void) {
  PHASE("for_static_init_4 with kmp_sch_static_balanced_chunked");
  {
#pragma omp parallel
    {
      int gtid = __kmpc_global_thread_num(NULL);
      int last = 0, lb = 0, ub = N - 1, st = 0;
      __kmpc_for_static_init_4(NULL, gtid, kBalancedChunked, &last, &lb, &ub, &st, 1, WIDTH);
      int size = ub >= lb ? ub - lb + 1 : 0;
      if ((ub != N - 1 && size % WIDTH != 0) || (last != 0) != (size != 0 && ub == N - 1))
        __atomic_add_fetch(&bad_chunks, 1, __ATOMIC_RELAXED);
      for (int i = lb; i <= ub; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
      __kmpc_for_static_fini(NULL, gtid);
    }
    check_hits("static_balanced_chunked (static init)");
  }

  PHASE("dispatch: static_balanced_chunked, guided_simd");
  {
#pragma omp parallel
    run_dispatch(kBalancedChunked, WIDTH, WIDTH);
    check_hits("static_balanced_chunked (dispatch)");
#pragma omp parallel
    run_dispatch(kGuidedSimd, WIDTH, WIDTH);
    check_hits("guided_simd");
  }

  PHASE("dispatch: runtime_simd under each run-sched-var");
  {
    static const struct {
      omp_sched_t kind;
      int chunk;
    } runs[] = {{omp_sched_static, 0},  {omp_sched_static, 2}, {omp_sched_dynamic, 1},
                {omp_sched_dynamic, 3}, {omp_sched_guided, 1}, {omp_sched_guided, 2},
                {omp_sched_auto, 0}};
    for (unsigned r = 0; r < sizeof runs / sizeof runs[0]; r++) {
      omp_set_schedule(runs[r].kind, runs[r].chunk);
      int unit =
          runs[r].chunk > 0 && runs[r].kind != omp_sched_auto ? runs[r].chunk * WIDTH : WIDTH;
#pragma omp parallel
      run_dispatch(kRuntimeSimd, WIDTH, unit);
      check_hits("runtime_simd");
    }
    omp_set_schedule(omp_sched_dynamic, 1);
  }

  PHASE("taskloop_5 with a strict grainsize");
  {
    /* 0..118 step 3: 40 iterations; grainsize(strict: 6) gives 6 tasks of 6 and one of 4. */
#pragma omp parallel
#pragma omp single
    {
      int gtid = __kmpc_global_thread_num(NULL);
      kmp_task_t* t = __kmpc_omp_task_alloc(NULL, gtid, 1, sizeof(kmp_task_t), 0, loop_body);
      t->lb = 0;
      t->ub = 118;
      t->st = 3;
      __kmpc_taskloop_5(NULL, gtid, t, 1, &t->lb, &t->ub, 3, 0, 1, 6, 1, (void*)loop_dup);
    }
    CHECK(task_count == 7, "strict grainsize 6 of 40 iterations: %d tasks", task_count);
    CHECK(iter_count == 40, "%d iterations ran", iter_count);
    CHECK(last_seen == 117, "the last task ends at %d", last_seen);
    CHECK(bad_chunks == 0, "%d tasks not of 6 iterations", bad_chunks);
  }
  return omp_check_result();
}
