/* undeferred: an undeferred task (if(0)) suspends its encountering task only until its own body
 * has run (OpenMP 5.0 §2.10.1): nothing waits for the deferred children it created, which may
 * still be running — or not yet started — when the encountering task resumes. A runtime that
 * kept the undeferred task's record on its frame and waited for those children there would hang
 * on a child that waits for the encountering task's next step. Also: if(0) with dependences waits
 * for its predecessors, and an if(0) task's children see its data environment. */
#include "omp_check.h"

int main(void) {
  PHASE("children outlive the undeferred task");
  {
    int go = 0, done = 0, team = 1;
#pragma omp parallel shared(go, done, team)
#pragma omp single
    {
      team = omp_get_num_threads();
      if (team > 1) {
#pragma omp task if (0) shared(go, done)
        {
#pragma omp task shared(go, done)
          { /* waits (bounded) for the encountering task's step after the if(0) task */
            double give_up = omp_get_wtime() + 5.0;
            while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE) && omp_get_wtime() < give_up) {
            }
            __atomic_store_n(&done, __atomic_load_n(&go, __ATOMIC_ACQUIRE) ? 1 : -1,
                             __ATOMIC_RELEASE);
          }
        }
        __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
#pragma omp taskwait
      }
    }
    if (team > 1) CHECK(done == 1, "the child saw go only after 5 s (done %d)", done);
  }

  PHASE("if(0) with dependences");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 50; r++) {
      int x = 0, seen = -1;
#pragma omp task depend(out : x) shared(x)
      {
        double end = omp_get_wtime() + 0.0001;
        while (omp_get_wtime() < end) {
        }
        x = r + 1;
      }
#pragma omp task if (0) depend(in : x) shared(x, seen)
      seen = x;
      if (seen != r + 1) bad++;
    }
    CHECK(bad == 0, "an if(0) task ran before its predecessor %d times", bad);
  }

  PHASE("many if(0) tasks with deferred children");
  {
    long sum = 0;
#pragma omp parallel shared(sum)
#pragma omp single
    for (int i = 0; i < 2000; i++) {
#pragma omp task if (0) firstprivate(i) shared(sum)
      {
#pragma omp task firstprivate(i) shared(sum)
        __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
#pragma omp task if (0) firstprivate(i) shared(sum)
        {
#pragma omp task firstprivate(i) shared(sum)
          __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
        }
      }
    }
    CHECK(sum == 1999L * 2000 / 2 + 2000, "sum %ld, expected %ld", sum, 1999L * 2000 / 2 + 2000);
  }
  return omp_check_result();
}
