/* lastprivate: the value of the sequentially last iteration (or lexically last section) under
 * every schedule and stride, firstprivate+lastprivate, conditional lastprivate, and the loop
 * variable's final value. */
#include "omp_check.h"

#define LP(sched, what)                                               \
  do {                                                                \
    int x = -1;                                                       \
    long i;                                                           \
    _Pragma(sched) for (i = 0; i < 997; i += 3) x = (int)i * 2;       \
    CHECK(x == 996 * 2, "%s: lastprivate %d", what, x);               \
    CHECK(i == 999, "%s: loop variable after the loop %ld", what, i); \
    x = -1;                                                           \
    _Pragma(sched) for (i = 500; i > -500; i -= 7) x = (int)i;        \
    CHECK(x == 500 - 7 * 142, "%s: down lastprivate %d", what, x);    \
  } while (0)

int main(void) {
  PHASE("lastprivate for");
  LP("omp parallel for lastprivate(x, i) schedule(static)", "static");
  LP("omp parallel for lastprivate(x, i) schedule(static, 4)", "static,4");
  LP("omp parallel for lastprivate(x, i) schedule(dynamic)", "dynamic");
  LP("omp parallel for lastprivate(x, i) schedule(dynamic, 6)", "dynamic,6");
  LP("omp parallel for lastprivate(x, i) schedule(guided)", "guided");
  LP("omp parallel for lastprivate(x, i) schedule(runtime)", "runtime");
  LP("omp parallel for lastprivate(x, i) schedule(auto)", "auto");

  PHASE("firstprivate + lastprivate");
  {
    int v = 10;
#pragma omp parallel for firstprivate(v) lastprivate(v) schedule(dynamic, 2)
    for (int i = 0; i < 100; i++) {
      if (v < 10) v = -1000; /* each thread's copy starts at 10 */
      v += 1;
    }
    CHECK(v >= 11 && v <= 110, "firstprivate+lastprivate: %d", v);
  }

  PHASE("lastprivate in a region");
  {
    int x = 0;
#pragma omp parallel
    {
#pragma omp for lastprivate(x) schedule(guided) nowait
      for (int i = 0; i < 333; i++) x = i;
#pragma omp barrier
      CHECK(x == 332, "orphaned lastprivate seen by thread %d: %d", omp_get_thread_num(), x);
    }
  }

  PHASE("conditional lastprivate");
  {
    int x = -1;
#pragma omp parallel for lastprivate(conditional : x) schedule(dynamic, 3)
    for (int i = 0; i < 500; i++)
      if (i % 37 == 5) x = i;
    CHECK(x == 486, "conditional lastprivate %d", x);
    x = -1;
#pragma omp parallel for lastprivate(conditional : x) schedule(static)
    for (int i = 0; i < 500; i++)
      if (i < 17) x = i;
    CHECK(x == 16, "conditional lastprivate (early) %d", x);
  }

  PHASE("sections lastprivate");
  {
    int s = -1;
#pragma omp parallel sections lastprivate(s)
    {
#pragma omp section
      s = 1;
#pragma omp section
      s = 2;
#pragma omp section
      s = 3;
    }
    CHECK(s == 3, "sections lastprivate %d", s);
  }
  return omp_check_result();
}
