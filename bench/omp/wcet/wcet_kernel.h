/* wcet_kernel.h — the task kernels of `rtpar bench wcet` (OpenMP-RT Table 1): rtpar's own
 * implementations of the BOTS and EPCC benchmarks the paper draws its tasks from (OpenMP-RT §5,
 * "Table 1 shows the experimentally-determined WCETs for each of the tasks"), written from the
 * benchmarks' published descriptions (Duran et al., BOTS, ICPP 2009; Bull et al., EPCC OpenMP
 * microbenchmarks), not copied from them. Each kernel is one .c file in this folder; the harness
 * is wcetbench.c.
 *
 * A kernel is OpenMP tasks (or, for the EPCC ones, the constructs EPCC times) inside its own
 * parallel region, so the team size the harness sets (1 = the paper's "sequential", 2 = its
 * "2-core" column) is the only difference between the two columns. Every kernel checks each
 * run's output against a reference computed serially, without OpenMP, in setup: a wrong run is
 * an error, never a sample. */
#ifndef RTPAR_BENCH_WCET_KERNEL_H
#define RTPAR_BENCH_WCET_KERNEL_H

#include <stdint.h>

/* WcetKernel is one row of Table 1: its name as the paper spells it, the suite, and three steps.
 * setup allocates the input and computes the serial reference (once, untimed); run is the timed
 * OpenMP kernel (its own parallel region); check says whether the last run's output equals the
 * reference (1) or not (0). */
typedef struct {
  const char* name;
  const char* suite;
  void (*setup)(void);
  void (*run)(void);
  int (*check)(void);
} WcetKernel;

/* wk_mix is a splitmix64 step: the kernels' one deterministic input source (no libc rand, whose
 * sequence differs between C libraries). */
static inline uint64_t wk_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* wk_delay is EPCC's delay loop: dependent float additions the compiler cannot remove or
 * vectorise (no -ffast-math); its cost is linear in n and independent of the runtime. noipa:
 * GCC may not treat it as a pure function and drop a call whose result is unused. */
__attribute__((noinline, noipa, unused)) static float wk_delay(long n) {
  float a = 0.0f;
  for (long i = 0; i < n; ++i) a += (float)i;
  return a;
}

extern const WcetKernel wk_alignment, wk_fft, wk_fib, wk_floorplan, wk_health, wk_nqueens,
    wk_knapsack, wk_sort, wk_sparselu, wk_strassen, wk_uts, wk_taskbench, wk_arraybench,
    wk_syncbench, wk_schedbench;

#endif
