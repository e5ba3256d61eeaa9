/* bots_health.c — BOTS "health": the Columbian health-care simulation — a tree of villages, each
 * with a hospital of limited capacity; every step each village generates patients, treats what
 * its capacity allows and refers the rest to its parent's hospital — with a task per subtree per
 * step (BOTS health). Each village draws from its own random stream, and referrals are collected
 * after the children's tasks, so the totals are deterministic; they are checked against a serial
 * simulation. */
#include <string.h>

#include "wcet_kernel.h"

/* kLevels levels of kFan children (kVillages villages), kSteps steps; tasks in the top
 * kTaskLevels levels. */
enum { kLevels = 4, kFan = 4, kSteps = 40, kVillages = 1 + 4 + 16 + 64, kTaskLevels = 2 };

/* Village is one node: its random stream, patients waiting and what it has done. */
typedef struct {
  uint64_t rng;
  long waiting, treated, waited;  /* waited: sum over steps of the queue length (waiting time) */
  int capacity;
} Village;

/* villages: the running state; start: the initial one, restored after each run. */
static Village villages[kVillages], start[kVillages];
/* result, reference: the totals {treated, waited} of the run and of the serial run. */
static long result[2], reference[2];

/* child is the index of village v's c-th child (a complete kFan-ary tree, level order). */
static int child(int v, int c) { return v * kFan + 1 + c; }

/* step simulates village v's subtree for one step and returns the patients it refers up. */
static long step(int v, int level, int tasks) {
  long referred_in = 0;
  if (level + 1 < kLevels) {
    long up[kFan] = {0};
    for (int c = 0; c < kFan; ++c) {
      if (tasks && level < kTaskLevels) {
#pragma omp task shared(up) firstprivate(c)
        up[c] = step(child(v, c), level + 1, 1);
      } else {
        up[c] = step(child(v, c), level + 1, 0);
      }
    }
    if (tasks && level < kTaskLevels) {
#pragma omp taskwait
    }
    for (int c = 0; c < kFan; ++c) referred_in += up[c];
  }
  Village* p = &villages[v];
  /* New patients: a few per step, more at the leaves (the population lives in villages). */
  long arrivals = 0;
  for (int k = 0; k < 64; ++k) arrivals += ((p->rng = wk_mix(p->rng)) % 32) == 0;
  p->waiting += arrivals + referred_in;
  const long treat = p->waiting < p->capacity ? p->waiting : p->capacity;
  p->waiting -= treat;
  p->treated += treat;
  p->waited += p->waiting;
  /* The untreated half of the queue is referred to the parent (the root keeps its own). */
  const long refer = v == 0 ? 0 : p->waiting / 2;
  p->waiting -= refer;
  return refer;
}

/* simulate runs every step and sums the totals into out. */
static void simulate(int tasks, long out[2]) {
  for (int s = 0; s < kSteps; ++s) step(0, 0, tasks);
  out[0] = out[1] = 0;
  for (int v = 0; v < kVillages; ++v) {
    out[0] += villages[v].treated;
    out[1] += villages[v].waited;
  }
}

/* setup builds the tree and simulates it serially: the reference. */
static void setup(void) {
  for (int v = 0; v < kVillages; ++v) {
    start[v].rng = wk_mix((uint64_t)v + 1000);
    start[v].waiting = start[v].treated = start[v].waited = 0;
    start[v].capacity = v < 5 ? 6 : 1;  /* the upper hospitals are larger */
  }
  memcpy(villages, start, sizeof villages);
  simulate(0, reference);
  memcpy(villages, start, sizeof villages);
}

/* run simulates with tasks. */
static void run(void) {
#pragma omp parallel
#pragma omp single
  simulate(1, result);
}

/* check compares the totals with the reference and restores the initial villages. */
static int check(void) {
  const int ok = result[0] == reference[0] && result[1] == reference[1];
  memcpy(villages, start, sizeof villages);
  return ok;
}

/* wk_health is the health row of Table 1. */
const WcetKernel wk_health = {"health", "BOTS", setup, run, check};
