/* critical: unnamed and named critical sections give mutual exclusion (checked with an
 * in-flight counter), different names are independent locks (nesting two names is legal),
 * hints are accepted, and critical works inside tasks and without a team. */
#include "omp_check.h"

static int inside, max_inside;
static long counter;

static void enter(void) {
  int v = __atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED);
  if (v > max_inside) max_inside = v;
}
static void leave(void) { __atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED); }

int main(void) {
  PHASE("unnamed");
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < 20000; i++) {
#pragma omp critical
    {
      enter();
      counter++;
      leave();
    }
  }
  CHECK(counter == 20000 && max_inside == 1, "unnamed: %ld, max inside %d", counter, max_inside);

  PHASE("named");
  counter = 0;
  max_inside = 0;
  {
    long other = 0;
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < 20000; i++) {
      if (i & 1) {
#pragma omp critical(alpha)
        {
          enter();
          counter++;
          leave();
        }
      } else {
#pragma omp critical(beta)
        other++;
      }
    }
    CHECK(counter == 10000 && other == 10000 && max_inside == 1, "named: %ld %ld max %d", counter,
          other, max_inside);
  }

  PHASE("nested names");
  {
    long x = 0;
#pragma omp parallel for
    for (int i = 0; i < 2000; i++) {
#pragma omp critical(outer_name)
      {
#pragma omp critical(inner_name)
        x++;
#pragma omp critical
        x++;
      }
    }
    CHECK(x == 4000, "nested names %ld", x);
  }

  PHASE("hint");
  {
    long x = 0, y = 0;
#pragma omp parallel for
    for (int i = 0; i < 4000; i++) {
#pragma omp critical(hinted) hint(omp_sync_hint_contended)
      x++;
#pragma omp critical(hinted2) hint(omp_sync_hint_uncontended | omp_sync_hint_nonspeculative)
      y++;
    }
    CHECK(x == 4000 && y == 4000, "hint %ld %ld", x, y);
  }

  PHASE("in tasks");
  {
    long x = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 500; i++) {
#pragma omp task shared(x)
      {
#pragma omp critical
        x++;
      }
    }
    CHECK(x == 500, "critical in tasks %ld", x);
  }

  PHASE("no team");
  {
    long x = 0;
#pragma omp critical
    x++;
#pragma omp critical(gamma)
    x++;
    CHECK(x == 2, "critical without a team");
  }
  return omp_check_result();
}
