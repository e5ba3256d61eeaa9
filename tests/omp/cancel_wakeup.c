/* cancel_wakeup: `cancel parallel` reaches members asleep in a cancellable barrier (an
 * oversubscribed team blocks at once, so they are in futex_wait or about to be), every time;
 * and `cancel taskgroup` in a task of a worksharing loop with a task reduction cancels the
 * enclosing taskgroup region (the loop's implicit group is not a taskgroup of the program), so
 * tasks created in that taskgroup afterwards are discarded. Run with OMP_CANCELLATION=true. */
#include "omp_check.h"

int main(void) {
  CHECK(omp_get_cancellation() == 1, "run with OMP_CANCELLATION=true");
  omp_set_dynamic(0);

  PHASE("cancel parallel wakes the barrier's sleepers");
  for (int r = 0; r < 300; r++) {
    int canceller = r % 8, passed = 0;
#pragma omp parallel num_threads(8)
    {
      if (omp_get_thread_num() == canceller) {
        for (volatile int i = 0; i < (r % 5) * 1000; i++) {
        }
#pragma omp cancel parallel
      }
#pragma omp barrier
      __atomic_add_fetch(&passed, 1, __ATOMIC_RELAXED);
    }
    CHECK(passed == 0, "round %d: %d members passed a cancelled barrier", r, passed);
  }

  PHASE("cancel taskgroup from a task-reduction loop's task");
  {
    int late = 0, sum = 0;
#pragma omp parallel num_threads(2)
#pragma omp taskgroup
    {
      int mine = 0;
#pragma omp for reduction(task, + : sum)
      for (int i = 0; i < 32; i++) {
        sum++;
        mine = 1;
#pragma omp task in_reduction(+ : sum)
        {
#pragma omp cancel taskgroup
        }
      }
      /* This thread's taskgroup was cancelled by its loop tasks: the task is discarded. */
      if (mine) {
#pragma omp task
        __atomic_add_fetch(&late, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(sum == 32, "reduction %d", sum);
    CHECK(late == 0, "%d tasks ran in a cancelled taskgroup", late);
  }
  return omp_check_result();
}
