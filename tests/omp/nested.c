/* nested: nested parallel regions under max-active-levels (serialized by default, real teams
 * after omp_set_max_active_levels), omp_get_level / active_level / ancestor_thread_num /
 * team_size at every level, nthreads-var inheritance, and omp_set_nested. */
#include "omp_check.h"

int main(void) {
  PHASE("defaults");
  /* OMP_NUM_THREADS holds one value and OMP_NESTED / OMP_MAX_ACTIVE_LEVELS are unset: nested
   * regions are inactive (GCC >= 11 and libomp agree). */
  CHECK(omp_get_max_active_levels() == 1, "default max active levels %d",
        omp_get_max_active_levels());
  CHECK(omp_get_ancestor_thread_num(0) == 0, "ancestor(0) outside %d",
        omp_get_ancestor_thread_num(0));
  CHECK(omp_get_team_size(0) == 1, "team_size(0) outside %d", omp_get_team_size(0));
  CHECK(omp_get_ancestor_thread_num(1) == -1, "ancestor(1) outside %d",
        omp_get_ancestor_thread_num(1));
  CHECK(omp_get_team_size(1) == -1, "team_size(1) outside %d", omp_get_team_size(1));
  CHECK(omp_get_ancestor_thread_num(-1) == -1, "ancestor(-1) %d", omp_get_ancestor_thread_num(-1));

  PHASE("serialized inner");
  {
    int inner_total = 0;
#pragma omp parallel num_threads(2)
    {
      int outer = omp_get_thread_num();
#pragma omp parallel num_threads(3)
      {
        __atomic_add_fetch(&inner_total, 1, __ATOMIC_RELAXED);
        CHECK(omp_get_num_threads() == 1, "inactive inner team of %d", omp_get_num_threads());
        CHECK(omp_get_thread_num() == 0, "inactive inner thread %d", omp_get_thread_num());
        CHECK(omp_get_level() == 2, "inner level %d", omp_get_level());
        CHECK(omp_get_active_level() == 1, "inner active level %d", omp_get_active_level());
        CHECK(omp_get_ancestor_thread_num(1) == outer, "ancestor(1) %d, expected %d",
              omp_get_ancestor_thread_num(1), outer);
        CHECK(omp_get_ancestor_thread_num(2) == 0, "ancestor(2) %d",
              omp_get_ancestor_thread_num(2));
        CHECK(omp_get_team_size(1) == 2, "team_size(1) %d", omp_get_team_size(1));
        CHECK(omp_get_team_size(2) == 1, "team_size(2) %d", omp_get_team_size(2));
        CHECK(omp_get_team_size(3) == -1, "team_size(3) %d", omp_get_team_size(3));
        CHECK(omp_in_parallel(), "inner: omp_in_parallel false");
      }
    }
    CHECK(inner_total == 2, "serialized inner regions ran %d times", inner_total);
  }

  PHASE("active nested");
  omp_set_max_active_levels(2);
  CHECK(omp_get_max_active_levels() == 2, "max active levels %d", omp_get_max_active_levels());
  {
    int ids[2][3];
    memset(ids, 0, sizeof ids);
    int level3 = 0;
#pragma omp parallel num_threads(2)
    {
      int outer = omp_get_thread_num();
#pragma omp parallel num_threads(3)
      {
        int inner = omp_get_thread_num();
        CHECK(omp_get_num_threads() == 3, "active inner team of %d", omp_get_num_threads());
        CHECK(omp_get_level() == 2 && omp_get_active_level() == 2, "levels %d/%d", omp_get_level(),
              omp_get_active_level());
        CHECK(omp_get_ancestor_thread_num(1) == outer, "ancestor(1) %d vs %d",
              omp_get_ancestor_thread_num(1), outer);
        CHECK(omp_get_ancestor_thread_num(2) == inner, "ancestor(2) %d vs %d",
              omp_get_ancestor_thread_num(2), inner);
        CHECK(omp_get_ancestor_thread_num(0) == 0, "ancestor(0) %d",
              omp_get_ancestor_thread_num(0));
        CHECK(omp_get_team_size(0) == 1 && omp_get_team_size(1) == 2 && omp_get_team_size(2) == 3,
              "team sizes %d %d %d", omp_get_team_size(0), omp_get_team_size(1),
              omp_get_team_size(2));
        if (outer < 2 && inner < 3) __atomic_add_fetch(&ids[outer][inner], 1, __ATOMIC_RELAXED);
          /* A third level exceeds max-active-levels: serialized. */
#pragma omp parallel num_threads(2)
        {
          CHECK(omp_get_num_threads() == 1, "level 3 team of %d", omp_get_num_threads());
          CHECK(omp_get_level() == 3 && omp_get_active_level() == 2, "level3 levels %d/%d",
                omp_get_level(), omp_get_active_level());
          __atomic_add_fetch(&level3, 1, __ATOMIC_RELAXED);
        }
#pragma omp barrier
#pragma omp single
        CHECK(omp_get_thread_num() < 3, "single in inner team");
      }
      CHECK(omp_get_num_threads() == 2 && omp_get_thread_num() == outer, "outer restored");
      CHECK(omp_get_level() == 1, "outer level restored %d", omp_get_level());
    }
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++)
        CHECK(ids[i][j] == 1, "inner (%d,%d) ran %d times", i, j, ids[i][j]);
    CHECK(level3 == 6, "level-3 regions %d", level3);
  }

  PHASE("nested worksharing");
  {
    int sums[2] = {0, 0};
#pragma omp parallel num_threads(2)
    {
      int o = omp_get_thread_num();
      int s = 0;
#pragma omp parallel for num_threads(2) reduction(+ : s) schedule(dynamic, 3)
      for (int i = 0; i < 1000; i++) s += i;
      sums[o] = s;
    }
    CHECK(sums[0] == 499500 && sums[1] == 499500, "nested loop sums %d %d", sums[0], sums[1]);
  }

  PHASE("nthreads-var per task");
  {
    int inner_sizes[2] = {0, 0};
#pragma omp parallel num_threads(2)
    {
      int o = omp_get_thread_num();
      omp_set_num_threads(o + 1); /* Changes only this implicit task's ICV. */
      CHECK(omp_get_max_threads() == o + 1, "thread %d max threads %d", o, omp_get_max_threads());
#pragma omp barrier
#pragma omp parallel
      {
#pragma omp master
        inner_sizes[o] = omp_get_num_threads();
      }
    }
    CHECK(inner_sizes[0] == 1 && inner_sizes[1] == 2, "inner sizes %d %d", inner_sizes[0],
          inner_sizes[1]);
  }

  PHASE("repeated nested");
  {
    int total = 0;
    for (int r = 0; r < 30; r++) {
#pragma omp parallel num_threads(2)
      {
#pragma omp parallel num_threads(2)
        __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(total == 120, "repeated nested total %d", total);
  }

  PHASE("parallel inside single and critical");
  omp_set_max_active_levels(2);
  {
    int a = 0, b = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      {
#pragma omp parallel num_threads(3)
        __atomic_add_fetch(&a, 1, __ATOMIC_RELAXED);
      }
#pragma omp critical
      {
#pragma omp parallel num_threads(2)
        __atomic_add_fetch(&b, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(a == 3, "parallel in single: %d", a);
    CHECK(b == 4, "parallel in critical: %d", b);
  }

  PHASE("omp_set_nested");
  omp_set_max_active_levels(1);
  omp_set_nested(1);
  CHECK(omp_get_nested() == 1, "get_nested after set_nested(1): %d", omp_get_nested());
  CHECK(omp_get_max_active_levels() > 1, "set_nested(1): max active levels %d",
        omp_get_max_active_levels());
  {
    int inner = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
#pragma omp master
      __atomic_add_fetch(&inner, omp_get_num_threads(), __ATOMIC_RELAXED);
    }
    CHECK(inner == 4, "nested enabled: inner sizes sum %d", inner);
  }
  omp_set_nested(0);
  CHECK(omp_get_nested() == 0, "get_nested after set_nested(0): %d", omp_get_nested());
  CHECK(omp_get_max_active_levels() == 1, "set_nested(0): max active levels %d",
        omp_get_max_active_levels());
  return omp_check_result();
}
