/* omp_bench.h — what the `rtpar bench omp` programs (bench/omp/, one .c each) share: the clock, the
 * EPCC delay loop, the command line, which OpenMP library the process really loaded, and the JSON
 * lines they print for the driver (bench/driver/bench_omp.cpp, docs/bench-omp.md).
 *
 * Each program is plain C compiled once with `gcc -fopenmp -O2` and run unchanged against every
 * runtime: the driver only changes LD_LIBRARY_PATH and OMP_* variables. So nothing here may
 * depend on which runtime is loaded, and nothing may link librtpar.
 *
 * Output: one JSON object per line on stdout.
 *   {"type":"info", "bench":..., "library":"/real/path/of/the/omp/library", "threads":N, ...}
 *   {"type":"row", "bench":..., "construct":..., "unit":"ns", "samples":[...], ...}
 * Anything else a runtime prints (OMP_DISPLAY_ENV, say) goes to stderr or is ignored by the driver
 * because it does not start with '{'. */
#ifndef RTPAR_BENCH_OMP_BENCH_H
#define RTPAR_BENCH_OMP_BENCH_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* ob_now_ns reads CLOCK_MONOTONIC in ns (vDSO: no system call). */
static inline int64_t ob_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ob_delay is EPCC's delay: a chain of dependent float additions (no -ffast-math, so the compiler
 * can neither reassociate nor vectorise it) whose result is "used" so it is not deleted. Its time
 * is linear in n and the same whichever runtime is loaded. */
__attribute__((noinline)) static void ob_delay(long n) {
  float a = 0.0f;
  for (long i = 0; i < n; ++i) a += (float)i;
  if (a < 0.0f) printf("%f", a);
}

/* ob_calibrate_delay is the n for which ob_delay(n) takes target_ns: the best of several timed
 * runs of a long delay (the minimum is the undisturbed speed). */
static inline long ob_calibrate_delay(double target_ns) {
  const long probe = 2000000;
  double best = 1e30;
  for (int k = 0; k < 7; ++k) {
    const int64_t t0 = ob_now_ns();
    ob_delay(probe);
    const double per = (double)(ob_now_ns() - t0) / (double)probe;
    if (per > 0 && per < best) best = per;
  }
  const long n = (long)(target_ns / best + 0.5);
  return n < 1 ? 1 : n;
}

/* ObOptions is the command line every program accepts (the driver passes it):
 *   --reps R --inner I --delay-iters D --delay-ns T --only NAME[,NAME...] --calibrate
 *   --releases R --period-ns P --priority P (0: stay SCHED_OTHER) --fib N --queens N --iters I
 *   --size-div D */
typedef struct {
  long reps;        /* outer repetitions: one sample each */
  long inner;       /* constructs per repetition (EPCC innerreps) */
  long delay_iters; /* ob_delay length; 0 = calibrate to delay_ns */
  double delay_ns;  /* EPCC delaytime (0.1 us) */
  const char* only; /* comma-separated construct names, NULL = all */
  int calibrate;    /* print {"type":"calibration",...} and exit */
  long releases;    /* periodic: releases */
  long period_ns;   /* periodic: release period */
  int priority;     /* periodic: SCHED_FIFO priority, 0 = SCHED_OTHER */
  int fib_n;        /* taskbench: fib(n) */
  int queens_n;     /* taskbench: nqueens(n) */
  long iters;       /* schedbench: iterations per thread per loop */
  long size_div;    /* appbench: every problem's work divided by this */
} ObOptions;

/* ob_parse fills o (whose fields hold the program's defaults) from argv; exits 2 on a bad one. */
static inline void ob_parse(int argc, char** argv, ObOptions* o) {
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (strcmp(a, "--calibrate") == 0) {
      o->calibrate = 1;
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "%s: %s needs a value (or is unknown)\n", argv[0], a);
      exit(2);
    }
    const char* v = argv[++i];
    char* end = NULL;
    errno = 0;
    const double x = strtod(v, &end);
    const int numeric = end != v && *end == '\0' && errno == 0;
    if (strcmp(a, "--only") == 0) {
      o->only = v;
      continue;
    }
    if (!numeric || x < 0) {
      fprintf(stderr, "%s: %s: bad value '%s'\n", argv[0], a, v);
      exit(2);
    }
    if (strcmp(a, "--reps") == 0)
      o->reps = (long)x;
    else if (strcmp(a, "--inner") == 0)
      o->inner = (long)x;
    else if (strcmp(a, "--delay-iters") == 0)
      o->delay_iters = (long)x;
    else if (strcmp(a, "--delay-ns") == 0)
      o->delay_ns = x;
    else if (strcmp(a, "--releases") == 0)
      o->releases = (long)x;
    else if (strcmp(a, "--period-ns") == 0)
      o->period_ns = (long)x;
    else if (strcmp(a, "--priority") == 0)
      o->priority = (int)x;
    else if (strcmp(a, "--fib") == 0)
      o->fib_n = (int)x;
    else if (strcmp(a, "--queens") == 0)
      o->queens_n = (int)x;
    else if (strcmp(a, "--iters") == 0)
      o->iters = (long)x;
    else if (strcmp(a, "--size-div") == 0)
      o->size_div = (long)x;
    else {
      fprintf(stderr, "%s: unknown option %s\n", argv[0], a);
      exit(2);
    }
  }
  if (o->reps < 1 || o->inner < 1) {
    fprintf(stderr, "%s: --reps and --inner must be >= 1\n", argv[0]);
    exit(2);
  }
  if (o->calibrate || o->delay_iters == 0) o->delay_iters = ob_calibrate_delay(o->delay_ns);
  if (o->calibrate) {
    printf("{\"type\":\"calibration\",\"delay_ns\":%.1f,\"delay_iters\":%ld}\n", o->delay_ns,
           o->delay_iters);
    exit(0);
  }
}

/* ob_selected says whether construct `name` is to be run (--only, comma-separated, exact). */
static inline int ob_selected(const ObOptions* o, const char* name) {
  if (o->only == NULL) return 1;
  const size_t n = strlen(name);
  for (const char* p = o->only; *p != '\0';) {
    const char* comma = strchr(p, ',');
    const size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) return 1;
    p += len + (comma != NULL ? 1 : 0);
  }
  return 0;
}

/* ob_library writes into buf the file, as mapped in /proc/self/maps (symlinks resolved by the
 * kernel), that holds the code of omp_get_num_threads: the OpenMP library this process really
 * runs on, whatever LD_LIBRARY_PATH was meant to do. "?" if it cannot be found. */
static inline void ob_library(char* buf, size_t size) {
  const uintptr_t fn = (uintptr_t)&omp_get_num_threads;
  snprintf(buf, size, "?");
  FILE* maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return;
  char line[4096];
  while (fgets(line, sizeof line, maps) != NULL) {
    unsigned long lo = 0, hi = 0;
    int path_at = 0;
    if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &path_at) < 2 || path_at == 0)
      continue;
    if (fn < lo || fn >= hi) continue;
    char* path = line + path_at;
    path[strcspn(path, "\n")] = '\0';
    snprintf(buf, size, "%s", path);
    break;
  }
  fclose(maps);
}

/* ob_print_info prints the program's info line: the bench, the library really loaded, the team
 * size the runtime will use and the wait policy asked for. Call it after the first region so
 * the runtime has read its environment. */
static inline void ob_print_info(const char* bench, const ObOptions* o) {
  char lib[1024];
  ob_library(lib, sizeof lib);
  const char* wait = getenv("OMP_WAIT_POLICY");
  printf(
      "{\"type\":\"info\",\"bench\":\"%s\",\"library\":\"%s\",\"threads\":%d,"
      "\"wait_policy\":\"%s\",\"delay_iters\":%ld,\"delay_ns\":%.1f,\"reps\":%ld,"
      "\"inner\":%ld}\n",
      bench, lib, omp_get_max_threads(), wait != NULL ? wait : "default", o->delay_iters,
      o->delay_ns, o->reps, o->inner);
  fflush(stdout);
}

/* ob_print_row prints one row: the construct's samples (ns, one per repetition) and two extras
 * already formatted as JSON members (may be ""). */
static inline void ob_print_row(const char* bench, const char* construct, const double* samples,
                                long n, const char* extra) {
  printf(
      "{\"type\":\"row\",\"bench\":\"%s\",\"construct\":\"%s\",\"unit\":\"ns\"%s%s,"
      "\"samples\":[",
      bench, construct, extra != NULL && *extra != '\0' ? "," : "", extra != NULL ? extra : "");
  for (long i = 0; i < n; ++i) printf(i == 0 ? "%.1f" : ",%.1f", samples[i]);
  printf("]}\n");
  fflush(stdout);
}

/* ob_median is the median of n values (n >= 1; v is reordered). */
static inline double ob_median(double* v, long n) {
  for (long i = 1; i < n; ++i) { /* insertion sort: n is a few hundred at most */
    const double x = v[i];
    long j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ob_alloc_samples allocates n doubles, touched before any timing; exits 1 if it cannot. */
static inline double* ob_alloc_samples(long n) {
  double* s = calloc((size_t)(n > 0 ? n : 1), sizeof *s);
  if (s == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return s;
}

#endif /* RTPAR_BENCH_OMP_BENCH_H */
