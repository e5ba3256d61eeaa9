/* epcc_taskbench.c — EPCC "taskbench": the cost of OpenMP tasks, as EPCC's PARALLEL TASK (every
 * thread generates tasks) and MASTER TASK (one thread generates them all) tests, each task a
 * delay of EPCC's delay loop. The total number of tasks is fixed whatever the team size, so the
 * 2-thread column shares the work (OpenMP-RT §5.1: the tasks have "configurable thread
 * counts"). Checked by counting the tasks that ran. */
#include <omp.h>

#include "wcet_kernel.h"

/* kTasks tasks per test, each a delay of kDelay. */
enum { kTasks = 512, kDelay = 300 };

/* ran: the tasks that ran in the last run. */
static long ran;

/* work is one task's body: the delay, then count it (the delay's value is positive, so the
 * count is always 1; using it keeps the delay). */
static void work(void) {
  const long one = wk_delay(kDelay) >= 0.0f ? 1 : 1000000;
  __atomic_fetch_add(&ran, one, __ATOMIC_RELAXED);
}

/* setup has nothing to precompute: the reference is 2 * kTasks tasks. */
static void setup(void) {}

/* run: PARALLEL TASK (each thread its share of kTasks), then MASTER TASK (one thread all). */
static void run(void) {
#pragma omp parallel
  {
    const int t = omp_get_num_threads(), me = omp_get_thread_num();
    for (int i = me; i < kTasks; i += t) {
#pragma omp task
      work();
    }
#pragma omp barrier
#pragma omp master
    for (int i = 0; i < kTasks; ++i) {
#pragma omp task
      work();
    }
  }
}

/* check compares the count with 2 * kTasks and clears it. */
static int check(void) {
  const int ok = ran == 2 * kTasks;
  ran = 0;
  return ok;
}

/* wk_taskbench is the TaskBench row of Table 1. */
const WcetKernel wk_taskbench = {"TaskBench", "EPCC", setup, run, check};
