/* ordered: `ordered` regions run in iteration order under static, static/chunk, dynamic,
 * guided, runtime schedules, negative strides, iterations that skip the ordered region, and
 * ordered loops repeated in one region (each instance starts over). */
#include "omp_check.h"

static long next_i;
static int bad;

#define ORD(sched, lb, cond, step, what)                          \
  do {                                                            \
    next_i = (lb);                                                \
    bad = 0;                                                      \
    _Pragma(sched) for (long i = (lb); i cond; i += (step)) {     \
      _Pragma("omp ordered") {                                    \
        if (i != next_i) bad++;                                   \
        next_i = i + (step);                                      \
      }                                                           \
    }                                                             \
    CHECK(bad == 0, "%s: %d iterations out of order", what, bad); \
  } while (0)

int main(void) {
  PHASE("parallel for ordered");
  ORD("omp parallel for ordered schedule(static)", 0, < 500, 1, "static");
  ORD("omp parallel for ordered schedule(static, 1)", 0, < 500, 1, "static,1");
  ORD("omp parallel for ordered schedule(static, 7)", 3, < 500, 2, "static,7");
  ORD("omp parallel for ordered schedule(dynamic)", 0, < 500, 1, "dynamic");
  ORD("omp parallel for ordered schedule(dynamic, 5)", 500, > -3, -1, "dynamic,5 down");
  ORD("omp parallel for ordered schedule(guided)", 0, < 500, 3, "guided");
  ORD("omp parallel for ordered schedule(guided, 4)", 0, < 500, 1, "guided,4");
  ORD("omp parallel for ordered schedule(runtime)", -100, < 400, 1, "runtime");
  ORD("omp parallel for ordered schedule(auto)", 0, < 500, 1, "auto");
  ORD("omp parallel for ordered", 0, < 2, 1, "fewer iterations than threads");
  ORD("omp parallel for ordered schedule(monotonic: dynamic)", 0, < 300, 1, "monotonic dynamic");

  PHASE("orphaned ordered in a region");
#pragma omp parallel
  {
    for (int r = 0; r < 20; r++) {
#pragma omp single
      next_i = 0, bad = 0;
#pragma omp for ordered schedule(dynamic, 2)
      for (long i = 0; i < 50; i++) {
#pragma omp ordered
        {
          if (i != next_i) bad++;
          next_i = i + 1;
        }
      }
#pragma omp single
      CHECK(bad == 0 && next_i == 50, "round %d: %d out of order, next %ld", r, bad, next_i);
    }
  }

  PHASE("ordered with skipped iterations");
  {
    long seen[200];
    int n = 0;
#pragma omp parallel for ordered schedule(dynamic, 3)
    for (long i = 0; i < 200; i++) {
      long v = i * i;
      if (i % 3 == 1) continue; /* this iteration executes no ordered region */
#pragma omp ordered
      seen[n++] = v;
    }
    int ok = 1;
    for (int k = 1; k < n; k++) ok &= seen[k] > seen[k - 1];
    CHECK(ok && n == 200 - 67, "skipped iterations: %d recorded, order %s", n, ok ? "ok" : "wrong");
  }

  PHASE("work outside the ordered region runs in parallel");
  {
    int out[300];
    int n = 0;
#pragma omp parallel for ordered schedule(static, 1)
    for (int i = 0; i < 300; i++) {
      int v = i * 3; /* unordered part */
#pragma omp ordered
      out[n++] = v;
    }
    int ok = n == 300;
    for (int i = 0; ok && i < 300; i++) ok = out[i] == 3 * i;
    CHECK(ok, "ordered output wrong (n=%d)", n);
  }
  return omp_check_result();
}
