/* loop_ull: unsigned long long loops (the GOMP_loop_ull_* family) up and down, with every
 * schedule, ranges next to ULLONG_MAX and across LLONG_MAX, big strides, ordered, and
 * `parallel for` forms; every iteration exactly once. */
#include <limits.h>
#include "omp_check.h"

typedef unsigned long long ull;
#define MAXIT 4096
static int hits[MAXIT];

static void hit(ull lb, ull i, ull step, int up) {
  ull k = up ? (i - lb) / step : (lb - i) / step;
  if (k < MAXIT) __atomic_add_fetch(&hits[k], 1, __ATOMIC_RELAXED);
}

static void verify(const char* what, ull n, ull lb) {
  for (ull k = 0; k < MAXIT; k++) {
    int e = k < n ? 1 : 0;
    if (hits[k] != e) {
      CHECK(hits[k] == e, "%s (lb %llu): iteration #%llu ran %d times", what, lb, k, hits[k]);
      break;
    }
  }
  memset(hits, 0, sizeof hits);
}

#define DEFINE_ULL(name, sched)                                         \
  static void up_##name(ull lb, ull ub, ull st) {                       \
    _Pragma(sched) for (ull i = lb; i < ub; i += st) hit(lb, i, st, 1); \
  }                                                                     \
  static void down_##name(ull lb, ull ub, ull st) {                     \
    _Pragma(sched) for (ull i = lb; i > ub; i -= st) hit(lb, i, st, 0); \
  }
DEFINE_ULL(stat, "omp for schedule(static)")
DEFINE_ULL(stat3, "omp for schedule(static, 3)")
DEFINE_ULL(dyn, "omp for schedule(dynamic)")
DEFINE_ULL(dyn5, "omp for schedule(dynamic, 5)")
DEFINE_ULL(mdyn, "omp for schedule(monotonic: dynamic, 2)")
DEFINE_ULL(gui, "omp for schedule(guided)")
DEFINE_ULL(gui4, "omp for schedule(guided, 4)")
DEFINE_ULL(mgui, "omp for schedule(monotonic: guided)")
DEFINE_ULL(run, "omp for schedule(runtime)")
DEFINE_ULL(mrun, "omp for schedule(monotonic: runtime)")
DEFINE_ULL(nrun, "omp for schedule(nonmonotonic: runtime)")
DEFINE_ULL(aut, "omp for schedule(auto)")

typedef void (*fn_t)(ull, ull, ull);
static const struct {
  const char* name;
  fn_t up, down;
} fns[] = {
    {"static", up_stat, down_stat},
    {"static,3", up_stat3, down_stat3},
    {"dynamic", up_dyn, down_dyn},
    {"dynamic,5", up_dyn5, down_dyn5},
    {"monotonic:dynamic,2", up_mdyn, down_mdyn},
    {"guided", up_gui, down_gui},
    {"guided,4", up_gui4, down_gui4},
    {"monotonic:guided", up_mgui, down_mgui},
    {"runtime", up_run, down_run},
    {"monotonic:runtime", up_mrun, down_mrun},
    {"nonmonotonic:runtime", up_nrun, down_nrun},
    {"auto", up_aut, down_aut},
};

static const ull ranges[][3] = {
    /* lb, ub, step (up: i < ub; down: i > ub with i -= step) */
    {0, 1000, 1},
    {ULLONG_MAX - 2000, ULLONG_MAX - 1, 1},
    {ULLONG_MAX - 3000, ULLONG_MAX - 7, 7},
    {(ull)LLONG_MAX - 1000, (ull)LLONG_MAX + 1000, 1},
    {(ull)LLONG_MAX - 10000, (ull)LLONG_MAX + 10000, 13},
    {ULLONG_MAX / 1000, ULLONG_MAX - ULLONG_MAX / 500, ULLONG_MAX / 1000},
    {5, 5, 1},
    {0, 2, 1},
};

int main(void) {
  PHASE("ull up/down");
  for (unsigned f = 0; f < sizeof fns / sizeof fns[0]; f++) {
    for (unsigned r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
      ull lb = ranges[r][0], ub = ranges[r][1], st = ranges[r][2];
      ull n = ub > lb ? (ub - lb - 1) / st + 1 : 0;
      static char phase[160];
      snprintf(phase, sizeof phase, "ull %s [%llu, %llu, %llu)", fns[f].name, lb, ub, st);
      PHASE(phase);
#pragma omp parallel
      fns[f].up(lb, ub, st);
      verify(fns[f].name, n, lb);
      /* The same range walked down: from ub down to lb (exclusive). */
#pragma omp parallel
      fns[f].down(ub, lb, st);
      verify(fns[f].name, n, ub);
    }
  }

  PHASE("ull runtime kinds");
  {
    const int kinds[][2] = {{omp_sched_static, 0},
                            {omp_sched_static, 2},
                            {omp_sched_dynamic, 3},
                            {omp_sched_guided, 2},
                            {omp_sched_auto, 0}};
    for (int k = 0; k < 5; k++) {
      omp_set_schedule((omp_sched_t)kinds[k][0], kinds[k][1]);
#pragma omp parallel
      { up_run(ULLONG_MAX - 1500, ULLONG_MAX, 1); }
      verify("runtime up to ULLONG_MAX", 1500, ULLONG_MAX - 1500);
#pragma omp parallel
      down_run(ULLONG_MAX, ULLONG_MAX - 1500, 3);
      verify("runtime down from ULLONG_MAX", 500, ULLONG_MAX);
    }
  }

  PHASE("ull parallel for");
  {
    ull sum = 0;
#pragma omp parallel for schedule(guided) reduction(+ : sum)
    for (ull i = 0; i < 100000; i++) sum += i;
    CHECK(sum == 100000ULL * 99999 / 2, "guided ull sum %llu", sum);
    sum = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : sum)
    for (ull i = ULLONG_MAX; i > ULLONG_MAX - 1000; i--) sum += ULLONG_MAX - i;
    CHECK(sum == 999ULL * 1000 / 2, "dynamic ull down sum %llu", sum);
  }

  PHASE("ull ordered");
  {
    ull next = ULLONG_MAX - 600;
    int bad = 0;
#pragma omp parallel for ordered schedule(dynamic, 3)
    for (ull i = ULLONG_MAX - 600; i < ULLONG_MAX; i++) {
#pragma omp ordered
      {
        if (i != next) bad++;
        next = i + 1;
      }
    }
    CHECK(bad == 0 && next == ULLONG_MAX, "ull ordered: %d out of order", bad);
    next = 1000;
    bad = 0;
#pragma omp parallel for ordered schedule(guided)
    for (ull i = 1000; i > 0; i -= 2) {
#pragma omp ordered
      {
        if (i != next) bad++;
        next = i - 2;
      }
    }
    CHECK(bad == 0, "ull ordered down: %d out of order", bad);
  }
  return omp_check_result();
}
