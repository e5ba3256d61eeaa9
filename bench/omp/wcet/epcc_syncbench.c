/* epcc_syncbench.c — EPCC "syncbench": the cost of synchronisation constructs — BARRIER, FOR
 * (with its implied barrier), CRITICAL, LOCK/UNLOCK, ATOMIC and REDUCTION — each around EPCC's
 * delay, a fixed number of times split among the team (so the 2-thread column shares the work).
 * Checked by the counters each construct protects. */
#include <omp.h>

#include "wcet_kernel.h"

/* kRounds rounds of each construct around a delay of kDelay. */
enum { kRounds = 96, kDelay = 300 };

/* the counters each construct protects (checked, then cleared). */
static long critical_count, lock_count, atomic_count, reduction_count;
/* lock: the LOCK/UNLOCK test's lock. */
static omp_lock_t lock;

/* delay is the work inside one construct (its value is always positive). */
static int delay(void) { return wk_delay(kDelay) >= 0.0f ? 1 : 1000000; }

/* setup initialises the lock. */
static void setup(void) { omp_init_lock(&lock); }

/* run: per round, a FOR of team-size items ending in its barrier, then one CRITICAL, one
 * LOCK, one ATOMIC and one REDUCTION section per item, the items shared among the team. */
static void run(void) {
  long red = 0;
#pragma omp parallel reduction(+ : red)
  {
    for (int r = 0; r < kRounds; ++r) {
#pragma omp for schedule(static)
      for (int i = 0; i < 2; ++i) {
        const int d = delay();
#pragma omp critical
        critical_count += d;
        omp_set_lock(&lock);
        lock_count += delay();
        omp_unset_lock(&lock);
        const int a = delay();
#pragma omp atomic
        atomic_count += a;
        red += delay();
      }
#pragma omp barrier
    }
  }
  reduction_count = red;
}

/* check compares every counter with 2 * kRounds and clears them. */
static int check(void) {
  const long want = 2L * kRounds;
  const int ok = critical_count == want && lock_count == want && atomic_count == want &&
                 reduction_count == want;
  critical_count = lock_count = atomic_count = reduction_count = 0;
  return ok;
}

/* wk_syncbench is the SyncBench row of Table 1. */
const WcetKernel wk_syncbench = {"SyncBench", "EPCC", setup, run, check};
