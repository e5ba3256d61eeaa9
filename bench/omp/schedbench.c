/* schedbench.c — rtpar-bench-omp-sched: the EPCC schedbench method for loop schedules
 * (docs/bench-omp.md). Built once with `gcc -fopenmp -O2`, run unchanged on every runtime.
 *
 * A repetition is one parallel region running `inner` worksharing loops of iters × threads
 * iterations, each iteration one delay (~0.1 us), with schedule(KIND, CHUNK) for KIND in static,
 * dynamic, guided and CHUNK in 1, 8, 64. The reference is iters delays on the master alone (the
 * ideal per-thread share of one loop); a sample is (test time / inner) - reference: the schedule's
 * overhead per loop, dispatch and the closing barrier included. GCC splits static loops inline
 * (no runtime call but the barrier); dynamic and guided go through GOMP_loop_nonmonotonic_*. */
#include "omp_bench.h"

/* kBench names this program's rows. */
static const char* const kBench = "sched";

/* SCHED_TEST defines test_KIND_CHUNK: one region, `inner` loops with schedule(KIND, CHUNK). The
 * schedule must be spelled in the pragma (schedule(runtime) would time other entry points). */
/* clang-format off */
#define SCHED_TEST(KIND, CHUNK)                                   \
  static int64_t test_##KIND##_##CHUNK(long inner, long iters, long d) { \
    const int64_t t0 = ob_now_ns();                               \
    _Pragma("omp parallel") {                                     \
      const long n = iters * omp_get_num_threads();               \
      for (long j = 0; j < inner; ++j) {                          \
        _Pragma(SCHED_PRAGMA(KIND, CHUNK))                        \
        for (long i = 0; i < n; ++i) ob_delay(d);                 \
      }                                                           \
    }                                                             \
    return ob_now_ns() - t0;                                      \
  }
/* clang-format on */
#define SCHED_STR(x) #x
#define SCHED_PRAGMA(KIND, CHUNK) SCHED_STR(omp for schedule(KIND, CHUNK))

SCHED_TEST(static, 1)
SCHED_TEST(static, 8)
SCHED_TEST(static, 64)
SCHED_TEST(dynamic, 1)
SCHED_TEST(dynamic, 8)
SCHED_TEST(dynamic, 64)
SCHED_TEST(guided, 1)
SCHED_TEST(guided, 8)
SCHED_TEST(guided, 64)

/* Loop is one row: its name and its test. */
typedef struct {
  const char* name;
  int64_t (*test)(long inner, long iters, long d);
} Loop;

/* kLoops lists the rows in output order. */
static const Loop kLoops[] = {
    {"STATIC_1", test_static_1},   {"STATIC_8", test_static_8},   {"STATIC_64", test_static_64},
    {"DYNAMIC_1", test_dynamic_1}, {"DYNAMIC_8", test_dynamic_8}, {"DYNAMIC_64", test_dynamic_64},
    {"GUIDED_1", test_guided_1},   {"GUIDED_8", test_guided_8},   {"GUIDED_64", test_guided_64},
};

int main(int argc, char** argv) {
  ObOptions o = {.reps = 100, .inner = 16, .delay_ns = 100.0, .iters = 128};
  ob_parse(argc, argv, &o);
  if (o.iters < 1) {
    fprintf(stderr, "%s: --iters must be >= 1\n", argv[0]);
    return 2;
  }
  double* samples = ob_alloc_samples(o.reps);
  double* scratch = ob_alloc_samples(o.reps);
  /* Reference: the per-thread share of one loop, iters delays, alone (median of reps), before
   * the first region so that no runtime thread disturbs it (syncbench.c says why). */
  for (long r = 0; r < o.reps; ++r) {
    const int64_t t0 = ob_now_ns();
    for (long i = 0; i < o.iters; ++i) ob_delay(o.delay_iters);
    scratch[r] = (double)(ob_now_ns() - t0);
  }
  const double ref = ob_median(scratch, o.reps);
  test_static_1(1, 1, o.delay_iters); /* starts the runtime's threads */
  ob_print_info(kBench, &o);
  for (size_t c = 0; c < sizeof kLoops / sizeof kLoops[0]; ++c) {
    const Loop* k = &kLoops[c];
    if (!ob_selected(&o, k->name)) continue;
    k->test(1, o.iters, o.delay_iters); /* warm-up */
    for (long r = 0; r < o.reps; ++r) {
      samples[r] = (double)k->test(o.inner, o.iters, o.delay_iters) / (double)o.inner - ref;
    }
    char extra[160];
    snprintf(extra, sizeof extra, "\"inner\":%ld,\"iters_per_thread\":%ld,\"ref_ns\":%.2f", o.inner,
             o.iters, ref);
    ob_print_row(kBench, k->name, samples, o.reps, extra);
  }
  free(samples);
  free(scratch);
  return 0;
}
