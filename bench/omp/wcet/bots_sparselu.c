/* bots_sparselu.c — BOTS "sparselu": LU factorisation of a sparse block matrix (some blocks are
 * empty), with BOTS's four block operations — lu0 on the diagonal block, fwd on its row, bdiv on
 * its column, bmod on the trailing blocks, allocating an empty block that fill-in reaches — as
 * one task per block operation. Every block is updated by one task per step, in the same order
 * as the serial reference, so the result is bit-identical to it. */
#include <stdlib.h>
#include <string.h>

#include "wcet_kernel.h"

/* kNB x kNB blocks of kBS x kBS doubles. */
enum { kNB = 10, kBS = 16 };

/* Block is one dense block. */
typedef double Block[kBS][kBS];

/* initial: the input matrix (NULL = empty block). */
static Block* initial[kNB][kNB];
/* work: the matrix a run factorises, in pool. */
static Block* work[kNB][kNB];
/* reference: the serial factorisation. */
static Block* reference[kNB][kNB];
static Block pool[kNB * kNB];  /* storage of work's blocks (a fill-in takes an unused one) */

/* lu0 factorises diagonal block a in place (no pivoting, BOTS lu0). */
static void lu0(Block* a) {
  for (int k = 0; k < kBS; ++k)
    for (int i = k + 1; i < kBS; ++i) {
      (*a)[i][k] /= (*a)[k][k];
      for (int j = k + 1; j < kBS; ++j) (*a)[i][j] -= (*a)[i][k] * (*a)[k][j];
    }
}

/* fwd solves the row block b with the unit-lower factor of diag. */
static void fwd(const Block* diag, Block* b) {
  for (int k = 0; k < kBS; ++k)
    for (int i = k + 1; i < kBS; ++i)
      for (int j = 0; j < kBS; ++j) (*b)[i][j] -= (*diag)[i][k] * (*b)[k][j];
}

/* bdiv solves the column block c with the upper factor of diag. */
static void bdiv(const Block* diag, Block* c) {
  for (int i = 0; i < kBS; ++i)
    for (int k = 0; k < kBS; ++k) {
      (*c)[i][k] /= (*diag)[k][k];
      for (int j = k + 1; j < kBS; ++j) (*c)[i][j] -= (*c)[i][k] * (*diag)[k][j];
    }
}

/* bmod subtracts row * col from the inner block. */
static void bmod(const Block* row, const Block* col, Block* inner) {
  for (int i = 0; i < kBS; ++i)
    for (int j = 0; j < kBS; ++j) {
      double s = 0;
      for (int k = 0; k < kBS; ++k) s += (*row)[i][k] * (*col)[k][j];
      (*inner)[i][j] -= s;
    }
}

/* factor factorises m in place (tasks when tasks != 0), taking fill-in blocks from pool. */
static void factor(Block* m[kNB][kNB], Block* store, int tasks) {
  int next = 0;
  for (int i = 0; i < kNB; ++i)
    for (int j = 0; j < kNB; ++j)
      if (m[i][j] != NULL) ++next;
  for (int k = 0; k < kNB; ++k) {
    lu0(m[k][k]);
    for (int j = k + 1; j < kNB; ++j)
      if (m[k][j] != NULL) {
#pragma omp task if (tasks) firstprivate(j)
        fwd(m[k][k], m[k][j]);
      }
    for (int i = k + 1; i < kNB; ++i)
      if (m[i][k] != NULL) {
#pragma omp task if (tasks) firstprivate(i)
        bdiv(m[k][k], m[i][k]);
      }
#pragma omp taskwait
    for (int i = k + 1; i < kNB; ++i) {
      if (m[i][k] == NULL) continue;
      for (int j = k + 1; j < kNB; ++j) {
        if (m[k][j] == NULL) continue;
        if (m[i][j] == NULL) {  /* fill-in: a zero block (allocated by the generating thread) */
          m[i][j] = &store[next++];
          memset(m[i][j], 0, sizeof(Block));
        }
#pragma omp task if (tasks) firstprivate(i, j)
        bmod(m[i][k], m[k][j], m[i][j]);
      }
    }
#pragma omp taskwait
  }
}

/* copy_matrix points dst at blocks of store holding src's values (NULL where src is empty). */
static void copy_matrix(Block* dst[kNB][kNB], Block* const src[kNB][kNB], Block* store) {
  int next = 0;
  for (int i = 0; i < kNB; ++i)
    for (int j = 0; j < kNB; ++j) {
      dst[i][j] = NULL;
      if (src[i][j] == NULL) continue;
      dst[i][j] = &store[next++];
      memcpy(dst[i][j], src[i][j], sizeof(Block));
    }
}

/* setup builds BOTS's sparsity pattern (diagonal and near-diagonal blocks full, others empty
 * by a deterministic rule), diagonally dominant values, and factorises a copy serially. */
static void setup(void) {
  static Block init_store[kNB * kNB], ref_store[kNB * kNB];
  uint64_t s = 13;
  int next = 0;
  for (int i = 0; i < kNB; ++i)
    for (int j = 0; j < kNB; ++j) {
      initial[i][j] = NULL;
      const int full = i == j || i == j + 1 || j == i + 1 || (wk_mix((uint64_t)(i * kNB + j)) % 3 == 0);
      if (!full) continue;
      Block* b = &init_store[next++];
      for (int r = 0; r < kBS; ++r)
        for (int c = 0; c < kBS; ++c)
          (*b)[r][c] = (double)((s = wk_mix(s)) % 1000) / 1000.0 + (i == j && r == c ? 4.0 * kBS : 0);
      initial[i][j] = b;
    }
  copy_matrix(reference, initial, ref_store);
  factor(reference, ref_store, 0);
  copy_matrix(work, initial, pool);
}

/* run factorises work with tasks (one thread generates them, BOTS's single-generator version). */
static void run(void) {
#pragma omp parallel
#pragma omp single
  factor(work, pool, 1);
}

/* check compares every block with the reference bit for bit, then restores the input. */
static int check(void) {
  int ok = 1;
  for (int i = 0; i < kNB; ++i)
    for (int j = 0; j < kNB; ++j) {
      if ((work[i][j] == NULL) != (reference[i][j] == NULL)) ok = 0;
      else if (work[i][j] != NULL) ok &= memcmp(work[i][j], reference[i][j], sizeof(Block)) == 0;
    }
  copy_matrix(work, initial, pool);
  return ok;
}

/* wk_sparselu is the sparselu row of Table 1. */
const WcetKernel wk_sparselu = {"sparselu", "BOTS", setup, run, check};
