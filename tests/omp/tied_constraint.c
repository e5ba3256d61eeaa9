/* tied_constraint: the tied-task scheduling constraint (OpenMP 5.0 §2.10.6, TSC 2). A task that
 * holds a lock and is suspended in a taskwait, at the end of a taskgroup or on an undeferred
 * task's dependences may only be followed on its thread by its own descendants. Queued sibling
 * tasks that take the same lock would otherwise start on that thread and block on a lock its
 * suspended owner can never release: the program hangs (the watchdog reports the phase).
 *
 * The suspension is made long and certain with a detached child whose event a "fulfiller" task
 * (created first, so another thread takes it) fulfils 30 ms after the handle is published: the
 * suspended thread looks for work many times meanwhile. A team of one runs every task at once,
 * so the phases need two threads or more. */
#include <time.h>

#include "omp_check.h"

enum { kSiblings = 48 };

static omp_lock_t lock;
static int counter;
static omp_event_handle_t event;
static int event_ready; /* 1: `event` holds the detached child's handle */

/* fulfiller queues the task that fulfils `event` once it is published (and 30 ms more). */
static void fulfiller(void) {
#pragma omp task
  {
    double give_up = omp_get_wtime() + 5.0;
    while (!__atomic_load_n(&event_ready, __ATOMIC_ACQUIRE) && omp_get_wtime() < give_up) {
    }
    struct timespec d = {0, 30 * 1000 * 1000};
    nanosleep(&d, NULL);
    if (__atomic_exchange_n(&event_ready, 0, __ATOMIC_ACQ_REL)) omp_fulfill_event(event);
  }
}

/* siblings queues tasks that each take the lock once. */
static void siblings(void) {
  for (int i = 0; i < kSiblings; i++) {
#pragma omp task
    {
      omp_set_lock(&lock);
      counter++;
      omp_unset_lock(&lock);
    }
  }
}

/* detached_child creates a child task that completes when `event` is fulfilled. */
static void detached_child(void) {
  omp_event_handle_t e = (omp_event_handle_t)0;
#pragma omp task detach(e)
  { /* the handle is published from the body (the task's own copy of e holds it) */
    event = e;
    __atomic_store_n(&event_ready, 1, __ATOMIC_RELEASE);
  }
}

/* suspend_in_taskwait: the task waits for its detached child in a taskwait. */
static void suspend_in_taskwait(void) {
  detached_child();
#pragma omp taskwait
}

/* suspend_in_taskgroup: the task waits for its detached child at the end of a taskgroup. */
static void suspend_in_taskgroup(void) {
#pragma omp taskgroup
  detached_child();
}

/* suspend_on_dependences: an undeferred child waits for a detached sibling it depends on. */
static void suspend_on_dependences(void) {
  int x = 0, seen = 0;
  omp_event_handle_t e = (omp_event_handle_t)0;
#pragma omp task detach(e) depend(out : x) shared(x)
  {
    x = 1;
    event = e;
    __atomic_store_n(&event_ready, 1, __ATOMIC_RELEASE);
  }
#pragma omp task if (0) depend(in : x) shared(x, seen)
  seen = x;
  CHECK(seen == 1, "the undeferred task ran before its predecessor (saw %d)", seen);
}

/* run_phase: a task holding the lock suspends (`suspend`) while its siblings, which take the
 * same lock, are queued; it must get the lock back and every sibling must run. */
static void run_phase(void (*suspend)(void)) {
  counter = 0;
#pragma omp parallel
#pragma omp single
  {
    fulfiller();
    siblings();
#pragma omp task
    {
      omp_set_lock(&lock);
      suspend();
      counter += 1000;
      omp_unset_lock(&lock);
    }
  }
  CHECK(counter == 1000 + kSiblings, "counter %d, expected %d", counter, 1000 + kSiblings);
}

int main(void) {
  omp_init_lock(&lock);
  int team = 1;
#pragma omp parallel
#pragma omp single
  team = omp_get_num_threads();
  if (team < 2) {
    printf("tied_constraint: a team of one runs tasks at once; nothing to check\n");
    return omp_check_result();
  }

  PHASE("taskwait");
  run_phase(suspend_in_taskwait);
  PHASE("taskgroup");
  run_phase(suspend_in_taskgroup);
  PHASE("undeferred task with dependences");
  run_phase(suspend_on_dependences);

  PHASE("descendants still run during the wait");
  {
    /* The constraint must not starve the waiting task's own subtree: grandchildren queued by a
     * child that ran elsewhere are the suspended task's descendants. */
    int sum = 0;
#pragma omp parallel
#pragma omp single
#pragma omp task shared(sum)
    {
      for (int i = 0; i < 16; i++) {
#pragma omp task shared(sum)
        {
          for (int j = 0; j < 16; j++) {
#pragma omp task shared(sum)
            __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
          }
        }
      }
#pragma omp taskwait
#pragma omp taskgroup
      for (int i = 0; i < 16; i++) {
#pragma omp task shared(sum)
        __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(sum == 256 + 16, "sum %d, expected %d", sum, 256 + 16);
  }

  omp_destroy_lock(&lock);
  return omp_check_result();
}
