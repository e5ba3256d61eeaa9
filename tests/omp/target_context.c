/* target_context: a host-fallback target region runs in a fresh initial-thread context (OpenMP
 * 5.1 §2.14.5), whatever encounters it: inside it omp_get_level() is 0, the team is of one,
 * the team number is 0 of 1, thread-limit-var comes from the thread_limit clause, and the
 * parallel regions inside form their own contention group (threads busy outside do not count
 * against its thread limit). The encountering context is intact afterwards. */
#include "omp_check.h"

/* inside_ok: the checks of a target region's initial thread; returns the failures found. */
static int inside_ok(void) {
  int bad = 0;
  bad += omp_in_parallel() != 0;
  bad += omp_get_level() != 0;
  bad += omp_get_active_level() != 0;
  bad += omp_get_num_threads() != 1;
  bad += omp_get_thread_num() != 0;
  bad += omp_get_ancestor_thread_num(0) != 0;
  bad += omp_get_ancestor_thread_num(1) != -1;
  bad += omp_get_team_num() != 0;
  bad += omp_get_num_teams() != 1;
  return bad;
}

int main(void) {
  omp_set_dynamic(0);
  omp_set_max_active_levels(4);

  PHASE("target in a parallel region");
  {
    int bad = 0, level_after = -1;
#pragma omp parallel num_threads(3) reduction(+ : bad)
    {
#pragma omp target if (0) map(tofrom : bad)
      bad += inside_ok();
      if (omp_get_thread_num() == 1) level_after = omp_get_level();
      bad += omp_get_num_threads() != 3;
    }
    CHECK(bad == 0, "%d wrong values inside / after target", bad);
    CHECK(level_after == 1, "level after the target region %d", level_after);
  }

  PHASE("target in a host teams region");
  {
    int bad = 0;
#pragma omp teams num_teams(2) reduction(+ : bad)
    {
      bad += omp_get_num_teams() != 2;
#pragma omp parallel if (0) reduction(+ : bad)
#pragma omp target map(tofrom : bad)
      bad += inside_ok();
    }
    CHECK(bad == 0, "%d wrong values", bad);
  }

  PHASE("nested parallel inside a target inside nested parallel");
  {
    int bad = 0, ran = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad, ran)
#pragma omp parallel num_threads(2) reduction(+ : bad, ran)
    if (omp_get_thread_num() == 1) {
#pragma omp target if (0) map(tofrom : bad, ran)
      {
        int nt = 0, lvl = -1, anc = -2;
#pragma omp parallel num_threads(2)
        if (omp_get_thread_num() == 1) {
          nt = omp_get_num_threads();
          lvl = omp_get_level();
          anc = omp_get_ancestor_thread_num(1);
        }
        bad += nt != 2 || lvl != 1 || anc != 1;
        ran++;
      }
    }
    CHECK(ran == 2 && bad == 0, "ran %d, bad %d", ran, bad);
  }

  PHASE("thread_limit clause");
  {
    int limit = -1, inner = -1, after = -1;
#pragma omp target thread_limit(2) map(tofrom : limit, inner)
    {
      limit = omp_get_thread_limit();
#pragma omp parallel num_threads(4)
#pragma omp single
      inner = omp_get_num_threads();
    }
    after = omp_get_thread_limit();
    CHECK(limit == 2, "thread limit inside %d", limit);
    CHECK(inner >= 1 && inner <= 2, "team of %d under thread_limit(2)", inner);
    CHECK(after != 2, "thread limit leaked out of the target region");
  }
  return omp_check_result();
}
