/* bots_strassen.c — BOTS "strassen": C = A * B by Strassen's seven half-size products, each a
 * task, recursing down to a cutoff where a plain triple loop multiplies (BOTS strassen). Checked
 * against the triple loop on the whole matrices. */
#include <math.h>
#include <stdlib.h>

#include "wcet_kernel.h"

/* kN x kN matrices; blocks of kCutoff or less are multiplied by the triple loop. */
enum { kN = 128, kCutoff = 32 };

/* A, B: the operands; C: the run's product; reference: the triple loop's. */
static double A[kN * kN], B[kN * kN], C[kN * kN], reference[kN * kN];

/* naive sets c = a * b for n x n blocks with row strides sa, sb, sc. */
static void naive(const double* a, int sa, const double* b, int sb, double* c, int sc, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += a[i * sa + k] * b[k * sb + j];
      c[i * sc + j] = s;
    }
}

/* add sets r = x + sign * y for n x n blocks (r contiguous, stride n). */
static void add(const double* x, int sx, const double* y, int sy, double sign, double* r, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) r[i * n + j] = x[i * sx + j] + sign * y[i * sy + j];
}

/* strassen sets c = a * b (n x n, strides sa, sb, sc): the seven products M1..M7 as tasks. */
static void strassen(const double* a, int sa, const double* b, int sb, double* c, int sc, int n) {
  if (n <= kCutoff) {
    naive(a, sa, b, sb, c, sc, n);
    return;
  }
  const int h = n / 2;
  const size_t q = (size_t)h * h;
  double* buf = malloc(sizeof(double) * q * 21);
  double* m[7];
  for (int i = 0; i < 7; ++i) m[i] = buf + q * (size_t)i;
  double* t = buf + q * 7; /* 14 operand blocks, two per product */
  const double *a11 = a, *a12 = a + h, *a21 = a + h * sa, *a22 = a + h * sa + h;
  const double *b11 = b, *b12 = b + h, *b21 = b + h * sb, *b22 = b + h * sb + h;
#pragma omp task
  { add(a11, sa, a22, sa, 1, t, h); add(b11, sb, b22, sb, 1, t + q, h); strassen(t, h, t + q, h, m[0], h, h); }
#pragma omp task
  { add(a21, sa, a22, sa, 1, t + 2 * q, h); strassen(t + 2 * q, h, b11, sb, m[1], h, h); }
#pragma omp task
  { add(b12, sb, b22, sb, -1, t + 4 * q, h); strassen(a11, sa, t + 4 * q, h, m[2], h, h); }
#pragma omp task
  { add(b21, sb, b11, sb, -1, t + 6 * q, h); strassen(a22, sa, t + 6 * q, h, m[3], h, h); }
#pragma omp task
  { add(a11, sa, a12, sa, 1, t + 8 * q, h); strassen(t + 8 * q, h, b22, sb, m[4], h, h); }
#pragma omp task
  { add(a21, sa, a11, sa, -1, t + 10 * q, h); add(b11, sb, b12, sb, 1, t + 11 * q, h);
    strassen(t + 10 * q, h, t + 11 * q, h, m[5], h, h); }
#pragma omp task
  { add(a12, sa, a22, sa, -1, t + 12 * q, h); add(b21, sb, b22, sb, 1, t + 13 * q, h);
    strassen(t + 12 * q, h, t + 13 * q, h, m[6], h, h); }
#pragma omp taskwait
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < h; ++j) {
      const int k = i * h + j;
      c[i * sc + j] = m[0][k] + m[3][k] - m[4][k] + m[6][k];
      c[i * sc + j + h] = m[2][k] + m[4][k];
      c[(i + h) * sc + j] = m[1][k] + m[3][k];
      c[(i + h) * sc + j + h] = m[0][k] - m[1][k] + m[2][k] + m[5][k];
    }
  free(buf);
}

/* setup draws A and B and multiplies them with the triple loop: the reference. */
static void setup(void) {
  uint64_t s = 17;
  for (int i = 0; i < kN * kN; ++i) {
    A[i] = (double)((s = wk_mix(s)) % 100) / 100.0;
    B[i] = (double)((s = wk_mix(s)) % 100) / 100.0;
  }
  naive(A, kN, B, kN, reference, kN, kN);
}

/* run multiplies with tasks. */
static void run(void) {
#pragma omp parallel
#pragma omp single
  strassen(A, kN, B, kN, C, kN, kN);
}

/* check compares with the reference (Strassen's rounding differs: 1e-9 relative) and clears C. */
static int check(void) {
  int ok = 1;
  for (int i = 0; i < kN * kN; ++i) {
    ok &= fabs(C[i] - reference[i]) <= 1e-9 * (1.0 + fabs(reference[i]));
    C[i] = 0;
  }
  return ok;
}

/* wk_strassen is the strassen row of Table 1. */
const WcetKernel wk_strassen = {"strassen", "BOTS", setup, run, check};
