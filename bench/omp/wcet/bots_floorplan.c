/* bots_floorplan.c — BOTS "floorplan": the placement of cells of alternative shapes that
 * minimises the bounding area, by branch and bound with a task per shape choice near the root
 * (BOTS floorplan). Ours places the cells in order on shelves of a fixed-width strip: each cell
 * takes one of its shapes and goes on the current shelf if it fits, else opens a new one; the
 * area is the strip's width times the height used. The best area is shared through an atomic
 * min and prunes; the optimum is checked against a serial exhaustive search. */
#include "wcet_kernel.h"

/* kCells cells of kShapes shapes on shelves kWidth wide; tasks in the first kTaskDepth levels. */
enum { kCells = 12, kShapes = 3, kWidth = 20, kTaskDepth = 3 };

/* shape_w, shape_h: each cell's alternative shapes (width, height). */
static int shape_w[kCells][kShapes], shape_h[kCells][kShapes];
/* best: the smallest area found (shared by the tasks); reference: the serial optimum. */
static int best, reference;

/* lower_best sets best to v if v is smaller (an atomic min). */
static void lower_best(int v) {
  int cur = __atomic_load_n(&best, __ATOMIC_RELAXED);
  while (v < cur &&
         !__atomic_compare_exchange_n(&best, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

/* place tries every shape of cell i given the shelves so far (height of the closed shelves,
 * width used and height of the open one); prunes when the height already reaches best. */
static void place(int i, int closed, int used, int shelf, int tasks) {
  if ((closed + shelf) * kWidth >= __atomic_load_n(&best, __ATOMIC_RELAXED)) return;
  if (i == kCells) {
    lower_best((closed + shelf) * kWidth);
    return;
  }
  for (int s = 0; s < kShapes; ++s) {
    const int w = shape_w[i][s], h = shape_h[i][s];
    int c = closed, u = used, sh = shelf;
    if (u + w > kWidth) {  /* a new shelf */
      c += sh;
      u = 0;
      sh = 0;
    }
    u += w;
    if (h > sh) sh = h;
    if (tasks && i < kTaskDepth) {
#pragma omp task firstprivate(c, u, sh)
      place(i + 1, c, u, sh, 1);
    } else {
      place(i + 1, c, u, sh, 0);
    }
  }
  if (tasks && i < kTaskDepth) {
#pragma omp taskwait
  }
}

/* setup draws the cells (each shape of area about 20, rotations and stretches) and searches
 * serially: the reference. */
static void setup(void) {
  uint64_t s = 23;
  for (int i = 0; i < kCells; ++i)
    for (int k = 0; k < kShapes; ++k) {
      const int w = 2 + (int)((s = wk_mix(s)) % 7);
      shape_w[i][k] = w;
      shape_h[i][k] = (20 + w - 1) / w;
    }
  best = 1 << 30;
  place(0, 0, 0, 0, 0);
  reference = best;
}

/* run searches with tasks. */
static void run(void) {
  best = 1 << 30;
#pragma omp parallel
#pragma omp single
  place(0, 0, 0, 0, 1);
}

/* check compares the optimum with the reference. */
static int check(void) { return best == reference; }

/* wk_floorplan is the floorplan row of Table 1. */
const WcetKernel wk_floorplan = {"floorplan", "BOTS", setup, run, check};
