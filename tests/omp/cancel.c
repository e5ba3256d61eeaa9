/* cancel: cancel parallel / for / sections / taskgroup and cancellation points. With
 * OMP_CANCELLATION=true (omp_get_cancellation() == 1) every thread leaves the cancelled
 * construct at its next cancellation point or barrier; with it false the cancel directives are
 * ignored and everything runs. The program runs under both settings. */
#include "omp_check.h"

int main(void) {
  int on = omp_get_cancellation();
  const char* env = getenv("OMP_CANCELLATION");
  int want = env && (!strcmp(env, "true") || !strcmp(env, "TRUE"));
  CHECK(on == want, "omp_get_cancellation %d with OMP_CANCELLATION=%s", on, env ? env : "(unset)");

  PHASE("cancel parallel");
  for (int r = 0; r < 20; r++) {
    int flag = 0, after = 0, reached = 0, nt = 0;
#pragma omp parallel shared(flag, after, reached, nt)
    {
#pragma omp single nowait
      nt = omp_get_num_threads();
      if (omp_get_thread_num() == 0) {
        __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
#pragma omp cancel parallel
        __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
      } else {
        /* Poll cancellation points until the cancel is seen (bounded). */
        double end = omp_get_wtime() + 5;
        while (on && omp_get_wtime() < end) {
#pragma omp cancellation point parallel
        }
        __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
      }
#pragma omp barrier
      __atomic_add_fetch(&reached, 1, __ATOMIC_RELAXED);
    }
    if (on) {
      /* Thread 0 cancelled before counting; the others saw the flag and then a cancellation
       * point. Nobody reaches the code after the barrier. */
      if (after != 0 || reached != 0) {
        CHECK(after == 0 && reached == 0, "round %d: after %d, past barrier %d", r, after, reached);
        break;
      }
    } else {
      CHECK(after == nt && reached == nt, "disabled: after %d, past barrier %d", after, reached);
      break;
    }
  }

  PHASE("cancel for");
  for (int r = 0; r < 10; r++) {
    int flag = 0, ran = 0, after_flag = 0;
    const int N = 100000;
#pragma omp parallel shared(flag, ran, after_flag)
    {
#pragma omp for schedule(static, 1)
      for (int i = 0; i < N; i++) {
        if (i == 10) __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
        if (i > 1000) spin_until(&flag, 5);
        int f = __atomic_load_n(&flag, __ATOMIC_ACQUIRE);
#pragma omp cancel for if (f)
        if (f) __atomic_add_fetch(&after_flag, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
      }
    }
    if (on) {
      CHECK(after_flag == 0 && ran < N, "round %d: %d iterations ran after cancel (%d of %d)", r,
            after_flag, ran, N);
    } else {
      CHECK(ran == N, "disabled: %d of %d iterations", ran, N);
      break;
    }
  }

  PHASE("cancel for, dynamic, cancellation point");
  {
    int flag = 0, ran = 0;
    const int N = 200000;
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 8)
      for (int i = 0; i < N; i++) {
        if (i == 0) {
          __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
#pragma omp cancel for
        }
#pragma omp cancellation point for
        __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
      }
    }
    if (on)
      CHECK(ran < N, "dynamic loop ran all %d iterations after cancel", ran);
    else
      CHECK(ran == N, "disabled: %d iterations", ran);
  }

  PHASE("cancel sections");
  {
    int after = 0, sec = 0;
#pragma omp parallel
    {
#pragma omp sections
      {
#pragma omp section
        {
          __atomic_add_fetch(&sec, 1, __ATOMIC_RELAXED);
#pragma omp cancel sections
          __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
        }
#pragma omp section
        { __atomic_add_fetch(&sec, 1, __ATOMIC_RELAXED); }
      }
    }
    if (on)
      CHECK(after == 0, "code after cancel sections ran");
    else
      CHECK(after == 1 && sec == 2, "disabled: after %d sections %d", after, sec);
  }

  PHASE("cancel taskgroup");
  {
    int late = 0, created = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
      {
#pragma omp task if (0)
        {
#pragma omp cancel taskgroup
        }
        for (int i = 0; i < 100; i++) {
          created++;
#pragma omp task shared(late)
          {
#pragma omp cancellation point taskgroup
            __atomic_add_fetch(&late, 1, __ATOMIC_RELAXED);
          }
        }
      }
    }
    if (on)
      CHECK(late == 0, "%d tasks ran past a cancellation point of a cancelled taskgroup", late);
    else
      CHECK(late == 100, "disabled: %d of 100 tasks", late);
  }

  PHASE("cancel parallel releases a barrier");
  for (int r = 0; r < 10; r++) {
    int after = 0;
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) {
        double end = omp_get_wtime() + 0.002; /* let the others wait in the barrier */
        while (omp_get_wtime() < end) {
        }
#pragma omp cancel parallel
      }
#pragma omp barrier
      __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
    }
    if (on)
      CHECK(after == 0, "round %d: %d threads passed the barrier of a cancelled region", r, after);
    else
      CHECK(after == omp_get_max_threads(), "disabled: %d threads after the barrier", after);
    if (omp_check_failures) break;
  }

  PHASE("region after cancellation");
  {
    /* Cancellation of one region does not leak into the next one. */
    int count = 0;
#pragma omp parallel reduction(+ : count)
    {
#pragma omp cancellation point parallel
#pragma omp barrier
      count++;
    }
    CHECK(count == omp_get_max_threads(), "region after cancel: %d threads", count);
    int ran = 0;
#pragma omp parallel for reduction(+ : ran)
    for (int i = 0; i < 1000; i++) {
#pragma omp cancellation point for
      ran++;
    }
    CHECK(ran == 1000, "loop after cancel: %d", ran);
  }
  return omp_check_result();
}
