/* syncbench.c — rtpar-bench-omp-sync: the EPCC syncbench method for the synchronisation
 * constructs (docs/bench-omp.md). Built once with `gcc -fopenmp -O2`, run unchanged on libgomp,
 * LLVM libomp and rtpar's libgomp.so.1.
 *
 * Method (EPCC OpenMP microbenchmarks, Bull 1999 / Reid et al.): a repetition times `inner`
 * executions of a construct that each wrap the same delay (ob_delay, ~0.1 us). A reference
 * repetition times the delays alone, run serially. The construct's overhead in one repetition is
 *     (test time / inner) - (reference time / inner)
 * and each of the `reps` outer repetitions gives one sample. The reference is the median of its
 * own `reps` repetitions (EPCC takes the mean; the median keeps one preempted reference repetition
 * from shifting every sample). A sample can be slightly negative: noise around a tiny overhead.
 *
 * CRITICAL, LOCK/UNLOCK and ATOMIC run inner/threads times on every thread, so `inner` of them
 * run in total, serialised; their reference is `inner` delays (ATOMIC: `inner` plain increments).
 * REDUCTION's reference is the delay plus the serial increment. HANDOFF is ORDERED's floor: the
 * same hand-off of a turn between threads with a plain atomic word and no runtime call.
 *
 * THREAD_NUM is a query's cost per call (issue 33, item 6: programs such as ImageMagick call
 * omp_get_thread_num() hundreds of millions of times): one region, every thread making
 * inner × kQueryCalls calls, the sample being the time per call; its reference is the same loop
 * calling nothing. */
#include "omp_bench.h"

/* kBench names this program's rows. */
static const char* const kBench = "sync";

/* g_acc is the shared accumulator of ATOMIC and REDUCTION (EPCC's aaaa). */
static double g_acc;
/* g_lock is the lock of LOCK/UNLOCK. */
static omp_lock_t g_lock;

/* ref_delay times `inner` delays on the master alone. */
static int64_t ref_delay(long inner, long d) {
  const int64_t t0 = ob_now_ns();
  for (long j = 0; j < inner; ++j) ob_delay(d);
  return ob_now_ns() - t0;
}

/* ref_atomic times `inner` plain increments of the accumulator. */
static int64_t ref_atomic(long inner, long d) {
  (void)d;
  const int64_t t0 = ob_now_ns();
  for (long j = 0; j < inner; ++j) g_acc += 1.0;
  __asm__ volatile("" ::: "memory");
  return ob_now_ns() - t0;
}

/* ref_reduction times `inner` times: reset, delay, increment (REDUCTION's body, serial). */
static int64_t ref_reduction(long inner, long d) {
  const int64_t t0 = ob_now_ns();
  for (long j = 0; j < inner; ++j) {
    g_acc = 0.0;
    ob_delay(d);
    g_acc += 1.0;
    __asm__ volatile("" ::: "memory");
  }
  return ob_now_ns() - t0;
}

/* test_parallel: `inner` parallel regions, each thread running the delay. */
static int64_t test_parallel(long inner, long d) {
  const int64_t t0 = ob_now_ns();
  for (long j = 0; j < inner; ++j) {
#pragma omp parallel
    ob_delay(d);
  }
  return ob_now_ns() - t0;
}

/* test_for: one region; `inner` worksharing loops of `threads` iterations (one delay each). */
static int64_t test_for(long inner, long d) {
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
  {
    const int nt = omp_get_num_threads();
    for (long j = 0; j < inner; ++j) {
#pragma omp for
      for (int i = 0; i < nt; ++i) ob_delay(d);
    }
  }
  return ob_now_ns() - t0;
}

/* test_parallel_for: `inner` combined parallel loops of `threads` iterations. */
static int64_t test_parallel_for(long inner, long d) {
  const int nt = omp_get_max_threads();
  const int64_t t0 = ob_now_ns();
  for (long j = 0; j < inner; ++j) {
#pragma omp parallel for
    for (int i = 0; i < nt; ++i) ob_delay(d);
  }
  return ob_now_ns() - t0;
}

/* test_barrier: one region; every thread runs the delay then a barrier, `inner` times. */
static int64_t test_barrier(long inner, long d) {
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
  for (long j = 0; j < inner; ++j) {
    ob_delay(d);
#pragma omp barrier
  }
  return ob_now_ns() - t0;
}

/* test_single: one region; `inner` single constructs (one thread runs the delay, all wait). */
static int64_t test_single(long inner, long d) {
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
  for (long j = 0; j < inner; ++j) {
#pragma omp single
    ob_delay(d);
  }
  return ob_now_ns() - t0;
}

/* test_critical: one region; every thread enters the critical section inner/threads times. */
static int64_t test_critical(long inner, long d) {
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
  {
    const long mine = inner / omp_get_num_threads();
    for (long j = 0; j < mine; ++j) {
#pragma omp critical
      ob_delay(d);
    }
  }
  return ob_now_ns() - t0;
}

/* test_lock: as CRITICAL, with omp_set_lock / omp_unset_lock. */
static int64_t test_lock(long inner, long d) {
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
  {
    const long mine = inner / omp_get_num_threads();
    for (long j = 0; j < mine; ++j) {
      omp_set_lock(&g_lock);
      ob_delay(d);
      omp_unset_lock(&g_lock);
    }
  }
  return ob_now_ns() - t0;
}

/* test_ordered: a parallel loop of `inner` iterations, schedule(static,1), each iteration an
 * ordered delay. */
static int64_t test_ordered(long inner, long d) {
  const int64_t t0 = ob_now_ns();
#pragma omp parallel for ordered schedule(static, 1)
  for (long j = 0; j < inner; ++j) {
#pragma omp ordered
    ob_delay(d);
  }
  return ob_now_ns() - t0;
}

/* g_turn is HANDOFF's turn: the next iteration allowed to run. */
static long g_turn;

/* test_handoff: ORDERED's physical floor, a control with no runtime call inside the loop — one
 * region whose threads run iterations j = tid, tid + nt, ... in turn, each waiting (a spinning
 * acquire load) until the previous iteration's thread stored j (release) after its delay: the
 * token moves with one cache-line transfer per iteration, which is all ORDERED's hand-off must
 * cost. The region around it is the runtime's, as in ORDERED. */
static int64_t test_handoff(long inner, long d) {
  __atomic_store_n(&g_turn, 0, __ATOMIC_RELAXED);
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
  {
    const int nt = omp_get_num_threads();
    for (long j = omp_get_thread_num(); j < inner; j += nt) {
      while (__atomic_load_n(&g_turn, __ATOMIC_ACQUIRE) != j) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
      ob_delay(d);
      __atomic_store_n(&g_turn, j + 1, __ATOMIC_RELEASE);
    }
  }
  return ob_now_ns() - t0;
}

/* test_atomic: one region; every thread does inner/threads atomic increments of a double. */
static int64_t test_atomic(long inner, long d) {
  (void)d;
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
  {
    const long mine = inner / omp_get_num_threads();
    for (long j = 0; j < mine; ++j) {
#pragma omp atomic
      g_acc += 1.0;
    }
  }
  return ob_now_ns() - t0;
}

/* test_reduction: `inner` regions with reduction(+), each thread running the delay. */
static int64_t test_reduction(long inner, long d) {
  const int64_t t0 = ob_now_ns();
  for (long j = 0; j < inner; ++j) {
    g_acc = 0.0;
#pragma omp parallel reduction(+ : g_acc)
    {
      ob_delay(d);
      g_acc += 1.0;
    }
  }
  return ob_now_ns() - t0;
}

/* kQueryCalls is THREAD_NUM's calls per `inner` unit. */
#define kQueryCalls 4096

/* g_query is omp_get_thread_num, called through a volatile pointer: GCC knows the routine as a
 * const builtin and would otherwise hoist it out of the loop. */
static int (*volatile g_query)(void) = omp_get_thread_num;
/* g_query_sink keeps the sum of the results alive. */
static volatile long g_query_sink;

/* ref_query times the query loop without the call (per kQueryCalls iterations). */
static int64_t ref_query(long inner, long d) {
  (void)d;
  const int64_t t0 = ob_now_ns();
  long sum = 0;
  for (long j = 0; j < inner * kQueryCalls; ++j) {
    sum += j;
    __asm__ volatile("" : "+r"(sum));
  }
  g_query_sink = sum;
  return (ob_now_ns() - t0) / kQueryCalls;
}

/* test_thread_num: one region; every thread calls omp_get_thread_num() inner × kQueryCalls
 * times; the time is per kQueryCalls calls, so a sample is the cost of one call. */
static int64_t test_thread_num(long inner, long d) {
  (void)d;
  const int64_t t0 = ob_now_ns();
#pragma omp parallel
  {
    int (*q)(void) = g_query;
    long sum = 0;
    for (long j = 0; j < inner * kQueryCalls; ++j) {
      sum += q();
      __asm__ volatile("" : "+r"(sum));
    }
    g_query_sink = sum;
  }
  return (ob_now_ns() - t0) / kQueryCalls;
}

/* Timed is a timed function: `inner` constructs (or reference bodies) with delay length d. */
typedef int64_t (*Timed)(long inner, long d);

/* Construct is one row: its name, test, reference, and whether its count is split over threads. */
typedef struct {
  const char* name;
  Timed test;
  Timed ref;
  int split; /* inner/threads per thread: `inner` rounded down to a multiple of threads */
} Construct;

/* kConstructs lists the rows in output order. */
static const Construct kConstructs[] = {
    {"PARALLEL", test_parallel, ref_delay, 0},
    {"FOR", test_for, ref_delay, 0},
    {"PARALLEL_FOR", test_parallel_for, ref_delay, 0},
    {"BARRIER", test_barrier, ref_delay, 0},
    {"SINGLE", test_single, ref_delay, 0},
    {"CRITICAL", test_critical, ref_delay, 1},
    {"LOCK_UNLOCK", test_lock, ref_delay, 1},
    {"ORDERED", test_ordered, ref_delay, 0},
    {"HANDOFF", test_handoff, ref_delay, 0},
    {"ATOMIC", test_atomic, ref_atomic, 1},
    {"REDUCTION", test_reduction, ref_reduction, 0},
    {"THREAD_NUM", test_thread_num, ref_query, 0},
};

/* reference_ns is the median over reps of ref(inner, d), per construct (ns). */
static double reference_ns(Timed ref, long inner, long d, long reps, double* scratch) {
  ref(inner, d); /* warm-up */
  for (long r = 0; r < reps; ++r) scratch[r] = (double)ref(inner, d);
  return ob_median(scratch, reps) / (double)inner;
}

/* kCount is the number of constructs. */
#define kCount (sizeof kConstructs / sizeof kConstructs[0])

/* inner_of is the number of constructs a repetition of k runs (split ones: a multiple of nt). */
static long inner_of(const Construct* k, long inner, int nt) {
  if (!k->split) return inner;
  return inner < nt ? nt : inner - inner % nt;
}

int main(int argc, char** argv) {
  ObOptions o = {.reps = 200, .inner = 128, .delay_ns = 100.0};
  ob_parse(argc, argv, &o);
  omp_init_lock(&g_lock);
  const int nt = omp_get_max_threads();
  double* samples = ob_alloc_samples(o.reps);
  double* scratch = ob_alloc_samples(o.reps);
  /* The references run before the first region, while the process has one thread: a runtime's
   * worker spinning on a sibling hyperthread (or stealing the CPU) would slow the reference and
   * hide that runtime's overhead. So every runtime's samples subtract an undisturbed reference. */
  double ref[kCount];
  for (size_t c = 0; c < kCount; ++c) {
    const Construct* k = &kConstructs[c];
    ref[c] = ob_selected(&o, k->name)
                 ? reference_ns(k->ref, inner_of(k, o.inner, nt), o.delay_iters, o.reps, scratch)
                 : 0.0;
  }
  /* The first region starts the runtime's threads: not part of any measurement. */
  test_parallel(4, o.delay_iters);
  ob_print_info(kBench, &o);
  for (size_t c = 0; c < kCount; ++c) {
    const Construct* k = &kConstructs[c];
    if (!ob_selected(&o, k->name)) continue;
    const long inner = inner_of(k, o.inner, nt);
    k->test(inner, o.delay_iters); /* warm-up: the construct's first use may allocate */
    for (long r = 0; r < o.reps; ++r) {
      samples[r] = (double)k->test(inner, o.delay_iters) / (double)inner - ref[c];
    }
    char extra[160];
    snprintf(extra, sizeof extra, "\"inner\":%ld,\"ref_ns\":%.2f", inner, ref[c]);
    ob_print_row(kBench, k->name, samples, o.reps, extra);
  }
  omp_destroy_lock(&g_lock);
  free(samples);
  free(scratch);
  return 0;
}
