/* bots_knapsack.c — BOTS "knapsack": 0/1 knapsack by branch and bound, the take/leave branches
 * of the first items as tasks (BOTS knapsack), the best value shared through an atomic max and
 * used to prune. The optimum is deterministic whatever order the tasks run in; it is checked
 * against a serial dynamic program. */
#include "wcet_kernel.h"

/* kItems items, knapsack of kCapacity; the first kTaskDepth decisions are tasks. */
enum { kItems = 22, kCapacity = 400, kTaskDepth = 5 };

/* weight, value: the items; suffix_value[i]: the value of items i.. (the bound). */
static int weight[kItems], value[kItems], suffix_value[kItems + 1];
/* best: the best value found (shared by the tasks); reference: the dynamic program's. */
static int best, reference;

/* raise_best sets best to v if v is larger (an atomic max by compare-and-swap). */
static void raise_best(int v) {
  int cur = __atomic_load_n(&best, __ATOMIC_RELAXED);
  while (v > cur &&
         !__atomic_compare_exchange_n(&best, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

/* search explores items i.. with capacity cap left and value v so far; a branch whose value
 * plus every remaining item cannot beat best is pruned. */
static void search(int i, int cap, int v) {
  if (v + suffix_value[i] <= __atomic_load_n(&best, __ATOMIC_RELAXED)) return;
  if (i == kItems) {
    raise_best(v);
    return;
  }
  if (i < kTaskDepth) {
    if (weight[i] <= cap) {
#pragma omp task
      search(i + 1, cap - weight[i], v + value[i]);
    }
#pragma omp task
    search(i + 1, cap, v);
#pragma omp taskwait
  } else {
    if (weight[i] <= cap) search(i + 1, cap - weight[i], v + value[i]);
    search(i + 1, cap, v);
  }
}

/* setup draws the items and solves the dynamic program: the reference. */
static void setup(void) {
  uint64_t s = 7;
  for (int i = 0; i < kItems; ++i) {
    weight[i] = 10 + (int)((s = wk_mix(s)) % 60);
    value[i] = weight[i] + (int)((s = wk_mix(s)) % 20);  /* correlated: hard to prune */
  }
  suffix_value[kItems] = 0;
  for (int i = kItems - 1; i >= 0; --i) suffix_value[i] = suffix_value[i + 1] + value[i];
  int dp[kCapacity + 1] = {0};
  for (int i = 0; i < kItems; ++i)
    for (int c = kCapacity; c >= weight[i]; --c)
      if (dp[c - weight[i]] + value[i] > dp[c]) dp[c] = dp[c - weight[i]] + value[i];
  reference = dp[kCapacity];
}

/* run solves by branch and bound with tasks. */
static void run(void) {
  best = 0;
#pragma omp parallel
#pragma omp single
  search(0, kCapacity, 0);
}

/* check compares the optimum with the reference. */
static int check(void) { return best == reference; }

/* wk_knapsack is the knapsack row of Table 1. */
const WcetKernel wk_knapsack = {"knapsack", "BOTS", setup, run, check};
