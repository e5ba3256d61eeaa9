/* task_reduction: taskgroup task_reduction + task in_reduction (several variables and types,
 * nested taskgroups), parallel reduction(task, ...) with in_reduction tasks
 * (GOMP_parallel_reductions), for reduction(task, ...) (GOMP_loop_start with reductions),
 * sections reduction(task, ...), and task reductions repeated in one region. */
#include "omp_check.h"

int main(void) {
  PHASE("taskgroup task_reduction");
  {
    long s = 0;
    double d = 0;
    int m = 1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : s, d) task_reduction(* : m)
      {
        for (int i = 0; i < 200; i++) {
#pragma omp task in_reduction(+ : s, d) in_reduction(* : m) firstprivate(i)
          {
            s += i;
            d += 0.5;
            if (i % 25 == 0) m *= 2;
          }
        }
      }
    }
    CHECK(s == 19900 && d == 100.0 && m == 256, "task_reduction %ld %g %d", s, d, m);
  }

  PHASE("nested taskgroups");
  {
    long outer = 0, inner = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : outer)
      {
        for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : outer)
          {
            outer += 1;
            /* Each outer task reduces into its own variable: sibling taskgroups combining into
             * one shared original at their ends would race. */
            long mine = 0;
#pragma omp taskgroup task_reduction(+ : mine)
            {
              for (int k = 0; k < 10; k++) {
#pragma omp task in_reduction(+ : mine, outer)
                {
                  mine += 1;
                  outer += 1;
                }
              }
            }
#pragma omp atomic
            inner += mine;
          }
        }
      }
    }
    CHECK(outer == 110 && inner == 100, "nested taskgroups outer %ld inner %ld", outer, inner);
  }

  PHASE("parallel reduction(task)");
  {
    long s = 0;
#pragma omp parallel reduction(task, + : s)
    {
      s += 1; /* the implicit task's own contribution */
#pragma omp single
      for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : s)
        s += i;
      }
    }
    CHECK(s == 4950 + omp_get_max_threads(), "parallel reduction(task) %ld", s);
  }

  PHASE("for reduction(task)");
  {
    long s = 0;
#pragma omp parallel
    {
#pragma omp for reduction(task, + : s) schedule(dynamic, 4)
      for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : s)
        s += i;
        s += 1000;
      }
    }
    CHECK(s == 4950 + 100000, "for reduction(task) %ld", s);
  }

  PHASE("sections reduction(task)");
  {
    long s = 0;
#pragma omp parallel
    {
#pragma omp sections reduction(task, + : s)
      {
#pragma omp section
        {
#pragma omp task in_reduction(+ : s)
          s += 5;
        }
#pragma omp section
        {
#pragma omp task in_reduction(+ : s)
          s += 7;
          s += 1;
        }
      }
    }
    CHECK(s == 13, "sections reduction(task) %ld", s);
  }

  PHASE("repeated");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 30; r++) {
      long s = 0;
#pragma omp taskgroup task_reduction(+ : s)
      {
        for (int i = 0; i <= r; i++) {
#pragma omp task in_reduction(+ : s)
          s += i;
        }
      }
      if (s != (long)r * (r + 1) / 2) bad++;
    }
    CHECK(bad == 0, "repeated task reductions wrong %d times", bad);
  }
  return omp_check_result();
}
