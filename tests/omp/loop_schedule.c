/* loop_schedule: worksharing loops with static, static/chunk, dynamic, guided, runtime and auto
 * schedules, with and without monotonic/nonmonotonic modifiers; positive, negative and odd
 * strides, empty and one-iteration loops, fewer iterations than threads, bounds next to
 * LONG_MAX/LONG_MIN/INT_MAX; `for` inside a region, `parallel for`, orphaned loops (also without
 * a team); chunk ownership (static chunk k on thread k mod n, dynamic chunks whole), monotonic
 * order, and every iteration run exactly once. */
#include <limits.h>
#include "omp_check.h"

#define MAXIT 4096
static int hits[MAXIT];
static int owner[MAXIT];
static int mono_bad;

/* count_of: number of iterations of for (i = lb; step > 0 ? i < ub : i > ub; i += step). */
static long count_of(long lb, long ub, long step) {
  if (step > 0) return ub > lb ? (long)(((unsigned long)ub - lb + step - 1) / step) : 0;
  return lb > ub ? (long)(((unsigned long)lb - ub + (-step) - 1) / (-step)) : 0;
}

static void hit(long lb, long step, long i) {
  long k = step > 0 ? (long)(((unsigned long)i - (unsigned long)lb) / (unsigned long)step)
                    : (long)(((unsigned long)lb - (unsigned long)i) / (unsigned long)-step);
  if (k >= 0 && k < MAXIT) {
    __atomic_add_fetch(&hits[k], 1, __ATOMIC_RELAXED);
    owner[k] = omp_get_thread_num();
  }
}

static void verify(const char* what, long lb, long ub, long step) {
  long n = count_of(lb, ub, step);
  for (long k = 0; k < MAXIT; k++) {
    int e = k < n ? 1 : 0;
    if (hits[k] != e) {
      CHECK(hits[k] == e, "%s [%ld,%ld,%ld): iteration #%ld ran %d times", what, lb, ub, step, k,
            hits[k]);
      break;
    }
  }
  CHECK(mono_bad == 0, "%s [%ld,%ld,%ld): %d monotonic violations", what, lb, ub, step, mono_bad);
  memset(hits, 0, sizeof hits);
  mono_bad = 0;
}

/* DEFINE_LOOP: one orphaned loop function per schedule clause. The loop is written both ways
 * (up and down) as the compiler lowers them differently; MONO checks per-thread order. */
#define DEFINE_LOOP(name, sched, mono)                                                       \
  static void loop_##name(long lb, long ub, long step) {                                     \
    long last = 0;                                                                           \
    int first = 1;                                                                           \
    if (step > 0) {                                                                          \
      _Pragma(sched) for (long i = lb; i < ub; i += step) {                                  \
        if (mono && !first && i <= last) __atomic_add_fetch(&mono_bad, 1, __ATOMIC_RELAXED); \
        last = i, first = 0;                                                                 \
        hit(lb, step, i);                                                                    \
      }                                                                                      \
    } else {                                                                                 \
      _Pragma(sched) for (long i = lb; i > ub; i += step) {                                  \
        if (mono && !first && i >= last) __atomic_add_fetch(&mono_bad, 1, __ATOMIC_RELAXED); \
        last = i, first = 0;                                                                 \
        hit(lb, step, i);                                                                    \
      }                                                                                      \
    }                                                                                        \
  }

DEFINE_LOOP(static, "omp for schedule(static)", 1)
DEFINE_LOOP(static1, "omp for schedule(static, 1)", 1)
DEFINE_LOOP(static5, "omp for schedule(static, 5)", 1)
DEFINE_LOOP(dynamic, "omp for schedule(dynamic)", 0)
DEFINE_LOOP(dynamic4, "omp for schedule(dynamic, 4)", 0)
DEFINE_LOOP(mdynamic3, "omp for schedule(monotonic: dynamic, 3)", 1)
DEFINE_LOOP(ndynamic2, "omp for schedule(nonmonotonic: dynamic, 2)", 0)
DEFINE_LOOP(guided, "omp for schedule(guided)", 0)
DEFINE_LOOP(guided7, "omp for schedule(guided, 7)", 0)
DEFINE_LOOP(mguided, "omp for schedule(monotonic: guided)", 1)
DEFINE_LOOP(nguided3, "omp for schedule(nonmonotonic: guided, 3)", 0)
DEFINE_LOOP(runtime, "omp for schedule(runtime)", 0)
DEFINE_LOOP(mruntime, "omp for schedule(monotonic: runtime)", 1)
DEFINE_LOOP(nruntime, "omp for schedule(nonmonotonic: runtime)", 0)
DEFINE_LOOP(auto, "omp for schedule(auto)", 0)
DEFINE_LOOP(nowait_dyn, "omp for schedule(dynamic, 2) nowait", 0)

typedef void (*loop_fn)(long, long, long);
static const struct {
  const char* name;
  loop_fn fn;
  int chunk;        /* >0: chunks of this many iterations are whole (dynamic) */
  int static_chunk; /* >0: static chunk ownership */
} loops[] = {
    {"static", loop_static, 0, 0},
    {"static,1", loop_static1, 0, 1},
    {"static,5", loop_static5, 0, 5},
    {"dynamic", loop_dynamic, 0, 0},
    {"dynamic,4", loop_dynamic4, 4, 0},
    {"monotonic:dynamic,3", loop_mdynamic3, 3, 0},
    {"nonmonotonic:dynamic,2", loop_ndynamic2, 2, 0},
    {"guided", loop_guided, 0, 0},
    {"guided,7", loop_guided7, 0, 0},
    {"monotonic:guided", loop_mguided, 0, 0},
    {"nonmonotonic:guided,3", loop_nguided3, 0, 0},
    {"runtime", loop_runtime, 0, 0},
    {"monotonic:runtime", loop_mruntime, 0, 0},
    {"nonmonotonic:runtime", loop_nruntime, 0, 0},
    {"auto", loop_auto, 0, 0},
    {"dynamic,2 nowait", loop_nowait_dyn, 2, 0},
};
#define NLOOPS (int)(sizeof loops / sizeof loops[0])

static const long ranges[][3] = {
    {0, 1000, 1},
    {0, 1000, 7},
    {-500, 500, 3},
    {1000, 0, -1},
    {999, -1000, -13},
    {5, 5, 1},
    {5, 6, 1},
    {0, 3, 1},
    {7, 0, -3},
    {LONG_MAX - 3000, LONG_MAX - 7, 7},
    {LONG_MIN + 2000, LONG_MIN + 1, -1},
    {LONG_MIN, LONG_MIN + 3000, 1},
    {LONG_MAX - 2000, LONG_MAX - 5000, -2},
    {INT_MAX - 100L, INT_MAX + 900L, 1},
    {-3, 4000, 1},
};
#define NRANGES (int)(sizeof ranges / sizeof ranges[0])

static void check_chunks(const char* what, long lb, long ub, long step, int chunk, int stat,
                         int nt) {
  long n = count_of(lb, ub, step);
  if (n > MAXIT) n = MAXIT;
  for (long k = 0; k < n; k++) {
    if (chunk && owner[k] != owner[k - k % chunk]) {
      CHECK(0, "%s [%ld,%ld,%ld): chunk of %d split at #%ld (threads %d, %d)", what, lb, ub, step,
            chunk, k, owner[k - k % chunk], owner[k]);
      return;
    }
    if (stat && owner[k] != (k / stat) % nt) {
      CHECK(0, "%s [%ld,%ld,%ld): #%ld on thread %d, expected %ld", what, lb, ub, step, k, owner[k],
            (k / stat) % nt);
      return;
    }
  }
}

static const int runtime_kinds[][2] = {
    {omp_sched_static, 0},
    {omp_sched_static, 3},
    {omp_sched_dynamic, 1},
    {omp_sched_dynamic, 5},
    {omp_sched_guided, 1},
    {omp_sched_guided, 4},
    {omp_sched_auto, 0},
    {omp_sched_dynamic | omp_sched_monotonic, 2},
    {omp_sched_guided | omp_sched_monotonic, 0},
};

int main(void) {
  int nt = env_threads();
  if (nt < 1) nt = omp_get_max_threads();

  PHASE("orphaned loops in a region");
  for (int l = 0; l < NLOOPS; l++) {
    for (int r = 0; r < NRANGES; r++) {
      long lb = ranges[r][0], ub = ranges[r][1], st = ranges[r][2];
#pragma omp parallel
      loops[l].fn(lb, ub, st);
      check_chunks(loops[l].name, lb, ub, st, loops[l].chunk, loops[l].static_chunk, nt);
      verify(loops[l].name, lb, ub, st);
    }
  }

  PHASE("orphaned loops without a team");
  for (int l = 0; l < NLOOPS; l++) {
    loops[l].fn(0, 100, 1);
    verify(loops[l].name, 0, 100, 1);
    loops[l].fn(100, -1, -3);
    verify(loops[l].name, 100, -1, -3);
  }

  PHASE("runtime schedules");
  for (unsigned k = 0; k < sizeof runtime_kinds / sizeof runtime_kinds[0]; k++) {
    omp_set_schedule((omp_sched_t)runtime_kinds[k][0], runtime_kinds[k][1]);
    for (int r = 0; r < NRANGES; r++) {
      long lb = ranges[r][0], ub = ranges[r][1], st = ranges[r][2];
#pragma omp parallel
      {
        loop_runtime(lb, ub, st);
        loop_mruntime(lb, ub, st);
      }
      for (int i = 0; i < MAXIT; i++) hits[i] = hits[i] ? hits[i] - 1 : 0;
      verify("runtime(set)", lb, ub, st);
    }
    /* A dynamic runtime schedule with chunk c keeps chunks whole. */
    if ((runtime_kinds[k][0] & ~omp_sched_monotonic) == omp_sched_dynamic) {
#pragma omp parallel
      loop_runtime(0, 1000, 1);
      check_chunks("runtime dynamic", 0, 1000, 1, runtime_kinds[k][1], 0, nt);
      verify("runtime dynamic", 0, 1000, 1);
    }
    if (runtime_kinds[k][0] == omp_sched_static && runtime_kinds[k][1] > 0) {
#pragma omp parallel
      loop_runtime(0, 1000, 1);
      check_chunks("runtime static", 0, 1000, 1, 0, runtime_kinds[k][1], nt);
      verify("runtime static", 0, 1000, 1);
    }
  }
  omp_set_schedule(omp_sched_static, 0);

  PHASE("combined parallel for");
  {
#define PFOR(sched, what)                                                \
  do {                                                                   \
    _Pragma(sched) for (long i = 0; i < 2000; i += 3) hit(0, 3, i);      \
    verify(what, 0, 2000, 3);                                            \
    _Pragma(sched) for (long i = 2000; i > -7; i -= 2) hit(2000, -2, i); \
    verify(what, 2000, -7, -2);                                          \
  } while (0)
    PFOR("omp parallel for schedule(static)", "parallel for static");
    PFOR("omp parallel for schedule(static, 3)", "parallel for static,3");
    PFOR("omp parallel for schedule(dynamic)", "parallel for dynamic");
    PFOR("omp parallel for schedule(dynamic, 9)", "parallel for dynamic,9");
    PFOR("omp parallel for schedule(monotonic: dynamic, 9)", "parallel for m:dynamic,9");
    PFOR("omp parallel for schedule(guided)", "parallel for guided");
    PFOR("omp parallel for schedule(guided, 5)", "parallel for guided,5");
    PFOR("omp parallel for schedule(monotonic: guided, 5)", "parallel for m:guided,5");
    PFOR("omp parallel for schedule(runtime)", "parallel for runtime");
    PFOR("omp parallel for schedule(monotonic: runtime)", "parallel for m:runtime");
    PFOR("omp parallel for schedule(nonmonotonic: runtime)", "parallel for n:runtime");
    PFOR("omp parallel for schedule(auto)", "parallel for auto");
    PFOR("omp parallel for schedule(dynamic) num_threads(3)", "parallel for dynamic nt3");
    PFOR("omp parallel for schedule(guided) num_threads(1)", "parallel for guided nt1");
    PFOR("omp parallel for schedule(dynamic) if(0)", "parallel for dynamic if0");
  }

  PHASE("int loop, uneven bounds");
  {
    int s = 0;
#pragma omp parallel for schedule(dynamic, 5) reduction(+ : s)
    for (int i = INT_MAX - 1000; i < INT_MAX; i++) s += (i & 1);
    CHECK(s == 500, "int near INT_MAX: %d odd", s);
    s = 0;
#pragma omp parallel for schedule(guided) reduction(+ : s)
    for (int i = INT_MIN + 1000; i > INT_MIN; i--) s++;
    CHECK(s == 1000, "int near INT_MIN: %d", s);
    s = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : s)
    for (int i = 0; i <= 100; i += 10) s++;
    CHECK(s == 11, "inclusive bound: %d", s);
    s = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : s)
    for (int i = 10; i >= 0; i--) s++;
    CHECK(s == 11, "inclusive down: %d", s);
    s = 0;
#pragma omp parallel for schedule(guided, 1000) reduction(+ : s)
    for (int i = 0; i < 10; i++) s++;
    CHECK(s == 10, "chunk larger than the loop: %d", s);
  }

  PHASE("many work shares in one region");
  {
    int total = 0;
#pragma omp parallel reduction(+ : total)
    for (int r = 0; r < 200; r++) {
#pragma omp for schedule(dynamic) nowait
      for (int i = 0; i < r % 5; i++) total++;
#pragma omp for schedule(guided, 2)
      for (int i = 0; i < 7; i++) total++;
    }
    CHECK(total == 200 * 7 + 40 * (0 + 1 + 2 + 3 + 4), "many loops total %d", total);
  }
  return omp_check_result();
}
