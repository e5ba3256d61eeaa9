/* bots_fft.c — BOTS "fft": a one-dimensional complex FFT by recursive radix-2 Cooley-Tukey, the
 * two half-size transforms as tasks above a cutoff (BOTS fft's divide and conquer), checked
 * against a direct O(n^2) DFT computed in setup. */
#include <complex.h>
#include <math.h>

#include "wcet_kernel.h"

/* kN points; halves below kCutoff points are transformed without tasks. */
enum { kN = 2048, kCutoff = 128 };

/* input, the run's output and scratch, and the direct DFT of the input (reference). */
static double complex input[kN], output[kN], scratch[kN], reference[kN];

/* fft_rec transforms the n values in[0], in[stride], ... into out[0..n): the even and odd halves
 * (tasks while n > kCutoff) then the butterflies. tmp is n values of scratch. */
static void fft_rec(const double complex* in, int stride, double complex* out,
                    double complex* tmp, int n) {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  const int h = n / 2;
  if (n > kCutoff) {
#pragma omp task
    fft_rec(in, 2 * stride, tmp, out, h);
#pragma omp task
    fft_rec(in + stride, 2 * stride, tmp + h, out + h, h);
#pragma omp taskwait
  } else {
    fft_rec(in, 2 * stride, tmp, out, h);
    fft_rec(in + stride, 2 * stride, tmp + h, out + h, h);
  }
  for (int k = 0; k < h; ++k) {
    const double complex w = cexp(-2.0 * M_PI * I * k / n) * tmp[h + k];
    out[k] = tmp[k] + w;
    out[k + h] = tmp[k] - w;
  }
}

/* setup draws the input and computes the direct DFT: the reference. */
static void setup(void) {
  uint64_t s = 5;
  for (int i = 0; i < kN; ++i) {
    s = wk_mix(s);
    input[i] = (double)(s % 1000) / 1000.0 + I * (double)((s >> 20) % 1000) / 1000.0;
  }
  for (int k = 0; k < kN; ++k) {
    double complex sum = 0;
    for (int j = 0; j < kN; ++j) sum += input[j] * cexp(-2.0 * M_PI * I * (double)((long)j * k % kN) / kN);
    reference[k] = sum;
  }
}

/* run transforms the input with tasks. */
static void run(void) {
#pragma omp parallel
#pragma omp single
  fft_rec(input, 1, output, scratch, kN);
}

/* check compares every bin with the DFT (relative 1e-9 of the largest possible bin) and clears
 * the output. */
static int check(void) {
  int ok = 1;
  for (int k = 0; k < kN; ++k) {
    ok &= cabs(output[k] - reference[k]) <= 1e-9 * kN * 2.0;
    output[k] = 0;
  }
  return ok;
}

/* wk_fft is the fft row of Table 1. */
const WcetKernel wk_fft = {"fft", "BOTS", setup, run, check};
