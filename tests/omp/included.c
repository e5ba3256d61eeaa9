/* included: the tasks a final task creates are included (OpenMP 5.0 §2.10.1: run at once by the
 * encountering thread, final themselves), and rtpar runs them without a task record of their own
 * (issue 33, item 3). What such a task can observe must still be that of a task of its own:
 * omp_in_final(), the data environment's ICVs (a change inside it stays inside it, and its
 * children inherit it), taskwait / taskgroup in it, dependences among its children, nested
 * parallel regions in it, and the results of a final-cutoff recursion. */
#include "omp_check.h"

/* fib_final is fib(n) with the usual final cutoff at task depth `cut`. */
static long fib_final(int n, int depth, int cut) {
  if (n < 2) return n;
  long a = 0, b = 0;
#pragma omp task shared(a) final(depth >= cut)
  a = fib_final(n - 1, depth + 1, cut);
#pragma omp task shared(b) final(depth >= cut)
  b = fib_final(n - 2, depth + 1, cut);
#pragma omp taskwait
  return a + b;
}

/* icv_snapshot packs the data-environment ICVs a task can change. */
typedef struct {
  int nthreads, dyn, max_active;
  int sched_kind, sched_chunk;
} IcvSnap;

static IcvSnap icv_snapshot(void) {
  IcvSnap s;
  s.nthreads = omp_get_max_threads();
  s.dyn = omp_get_dynamic();
  s.max_active = omp_get_max_active_levels();
  omp_sched_t k;
  omp_get_schedule(&k, &s.sched_chunk);
  s.sched_kind = (int)k;
  return s;
}

static int icv_same(IcvSnap a, IcvSnap b) {
  return a.nthreads == b.nthreads && a.dyn == b.dyn && a.max_active == b.max_active &&
         a.sched_kind == b.sched_kind && a.sched_chunk == b.sched_chunk;
}

int main(void) {
  PHASE("final-cutoff fib");
  for (int cut = 0; cut <= 6; cut += 3) {
    long r = -1;
#pragma omp parallel shared(r)
#pragma omp single
    r = fib_final(22, 0, cut);
    CHECK(r == 17711, "fib_final(22) with cutoff %d = %ld", cut, r);
  }

  PHASE("omp_in_final in included tasks");
  {
    int bad = 0;
#pragma omp parallel shared(bad)
#pragma omp single
    {
#pragma omp task final(1) shared(bad)
      {
        if (!omp_in_final()) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp task shared(bad)
        {
          if (!omp_in_final()) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp task shared(bad)
          if (!omp_in_final()) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        }
      }
#pragma omp taskwait
      if (omp_in_final()) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
    CHECK(bad == 0, "omp_in_final() wrong %d times", bad);
  }

  PHASE("ICV changes stay inside the included task");
  {
    int bad = 0;
#pragma omp parallel shared(bad)
#pragma omp single
    {
#pragma omp task final(1) shared(bad)
      {
        const IcvSnap outer = icv_snapshot();
        int child_saw = 0, grandchild_saw = 0;
#pragma omp task shared(child_saw, grandchild_saw, bad)
        { /* included: changes its ICVs, then its own included child inherits them */
          omp_set_num_threads(7);
          omp_set_dynamic(!outer.dyn);
          omp_set_max_active_levels(3);
          omp_set_schedule(omp_sched_guided, 5);
          const IcvSnap mine = icv_snapshot();
#pragma omp task shared(grandchild_saw, bad)
          {
            grandchild_saw = omp_get_max_threads();
            const IcvSnap g = icv_snapshot();
            omp_set_num_threads(9); /* must not leak to the child */
            if (g.sched_chunk != 5) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
          }
          child_saw = omp_get_max_threads();
          const IcvSnap after = icv_snapshot();
          if (!icv_same(mine, after)) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        }
        CHECK(child_saw == 7, "the included task's own change lost (%d)", child_saw);
        CHECK(grandchild_saw == 7, "its child did not inherit the change (%d)", grandchild_saw);
        const IcvSnap after = icv_snapshot();
        CHECK(icv_same(outer, after),
              "an included task's ICV change leaked to its parent (nthreads %d -> %d)",
              outer.nthreads, after.nthreads);
        /* a change in the parent itself is visible to a later included child */
        omp_set_num_threads(5);
        int seen = 0;
#pragma omp task shared(seen)
        seen = omp_get_max_threads();
        CHECK(seen == 5, "included child saw nthreads %d, parent set 5", seen);
      }
#pragma omp taskwait
    }
    CHECK(bad == 0, "ICVs inside included tasks wrong %d times", bad);
  }

  PHASE("taskwait, taskgroup and dependences inside included tasks");
  {
    long sum = 0;
    int order_bad = 0;
#pragma omp parallel shared(sum, order_bad)
#pragma omp single
    {
#pragma omp task final(1) shared(sum, order_bad)
      {
        for (int i = 0; i < 100; ++i) {
#pragma omp taskgroup
          {
#pragma omp task shared(sum)
            {
#pragma omp task shared(sum)
              __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
#pragma omp taskwait
              __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
            }
          }
          int x = 0;
#pragma omp task depend(out : x) shared(x)
          x = 1;
#pragma omp task depend(in : x) shared(x, order_bad)
          if (x != 1) order_bad++;
        }
      }
#pragma omp taskwait
    }
    CHECK(sum == 200, "sum %ld, expected 200", sum);
    CHECK(order_bad == 0, "dependence order broken %d times", order_bad);
  }

  PHASE("a parallel region inside an included task");
  {
    int members = 0, bad = 0;
#pragma omp parallel shared(members, bad)
#pragma omp single
    {
#pragma omp task final(1) shared(members, bad)
      {
#pragma omp task shared(members, bad)
        {
          omp_set_num_threads(2); /* the included task's own nthreads-var */
#pragma omp parallel shared(members, bad)
          {
            if (omp_in_final()) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp atomic
            members++;
          }
        }
      }
#pragma omp taskwait
    }
    CHECK(bad == 0, "the implicit tasks of a nested region reported final %d times", bad);
    CHECK(members >= 1 && members <= 2, "nested region had %d members", members);
  }

  return omp_check_result();
}
