/* wcetbench.c — rtpar-bench-omp-wcet, the program behind `rtpar bench wcet` (OpenMP-RT Table 1,
 * docs/bench-omp.md "WCET"): runs each task kernel of wcet/ N times on the team size
 * OMP_NUM_THREADS gives, after warm-up runs, checks every run's output against the kernel's
 * serial reference, and prints the observed maximum ("WCET values were extracted experimentally
 * ... as the maximum observed execution time for a given task over a 1,000 run test", OpenMP-RT
 * §5) with p50, p99, min and mean.
 *
 *   rtpar-bench-omp-wcet --kernels NAME[,NAME...] --runs N --warmup W --priority P
 *
 * --priority P > 0 puts the process under SCHED_FIFO P before the team exists (its threads
 * inherit it); refused: exit 3 with a hint. Every 200 ms it pauses 20 ms at SCHED_OTHER (breathe)
 * so that RT throttling never cuts into a run. Output: JSON lines (omp_bench.h's info line, then
 * one {"type":"row","bench":"wcet",...} per kernel). A wrong result exits 4. */
#include <dirent.h>
#include <sys/mman.h>

#include "omp_bench.h"
#include "wcet/wcet_kernel.h"

/* kKernels are Table 1's rows, in its order. */
static const WcetKernel* const kKernels[] = {
    &wk_alignment, &wk_fft,      &wk_fib, &wk_floorplan, &wk_health,    &wk_nqueens,
    &wk_knapsack,  &wk_sort,     &wk_sparselu, &wk_strassen, &wk_uts,    &wk_taskbench,
    &wk_arraybench, &wk_syncbench, &wk_schedbench};
enum { kKernelCount = sizeof kKernels / sizeof kKernels[0] };

/* cmp_i64 orders int64 samples for qsort. */
static int cmp_i64(const void* a, const void* b) {
  const int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

/* rank is the nearest-rank p-th percentile of sorted[0..n) (the definition of bench/common). */
static int64_t rank(const int64_t* sorted, long n, double p) {
  long k = (long)(p / 100.0 * (double)n + 0.999999);
  if (k < 1) k = 1;
  if (k > n) k = n;
  return sorted[k - 1];
}

/* set_policy puts every thread of this process (/proc/self/task) under policy at priority. */
static void set_policy(int policy, int priority) {
  DIR* d = opendir("/proc/self/task");
  if (d == NULL) return;
  const struct sched_param sp = {.sched_priority = priority};
  for (struct dirent* e; (e = readdir(d)) != NULL;) {
    if (e->d_name[0] != '.') sched_setscheduler(atoi(e->d_name), policy, &sp);
  }
  closedir(d);
}

/* kBreathEveryNs and kBreathNs: every 200 ms of measuring at SCHED_FIFO, the whole process
 * (the actively waiting workers too) spends 20 ms at SCHED_OTHER, between two runs. Linux's RT
 * throttling (sched_rt_runtime_us, 950 ms of every 1 s here) would otherwise stop both spinning
 * cores for 50 ms in the middle of a run: a "WCET" of the kernel's policy, not of the kernel. */
enum { kBreathEveryNs = 200000000, kBreathNs = 20000000 };

/* breathe takes that pause at SCHED_OTHER and returns to SCHED_FIFO priority. */
static void breathe(int priority) {
  set_policy(SCHED_OTHER, 0);
  const struct timespec pause = {0, kBreathNs};
  nanosleep(&pause, NULL);
  set_policy(SCHED_FIFO, priority);
}

/* listed says whether name is one of the comma-separated names of list (NULL = every kernel). */
static int listed(const char* list, const char* name) {
  ObOptions o = {0};
  o.only = list;
  return ob_selected(&o, name);
}

/* arg_long parses argv[i + 1] as a non-negative integer, or exits 2. */
static long arg_long(int argc, char** argv, int i) {
  if (i + 1 >= argc) {
    fprintf(stderr, "%s: %s needs a value\n", argv[0], argv[i]);
    exit(2);
  }
  char* end = NULL;
  const long v = strtol(argv[i + 1], &end, 10);
  if (*argv[i + 1] == '\0' || *end != '\0' || v < 0) {
    fprintf(stderr, "%s: %s: bad value '%s'\n", argv[0], argv[i], argv[i + 1]);
    exit(2);
  }
  return v;
}

int main(int argc, char** argv) {
  const char* kernels = NULL;
  long runs = 1000, warmup = 20, priority = 0;
  for (int i = 1; i < argc; i += 2) {
    if (strcmp(argv[i], "--kernels") == 0 && i + 1 < argc) kernels = argv[i + 1];
    else if (strcmp(argv[i], "--runs") == 0) runs = arg_long(argc, argv, i);
    else if (strcmp(argv[i], "--warmup") == 0) warmup = arg_long(argc, argv, i);
    else if (strcmp(argv[i], "--priority") == 0) priority = arg_long(argc, argv, i);
    else {
      fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[i]);
      return 2;
    }
  }
  if (runs < 1 || priority > 99) {
    fprintf(stderr, "%s: --runs must be >= 1 and --priority in 0..99\n", argv[0]);
    return 2;
  }
  for (const char* p = kernels; p != NULL && *p != '\0';) {  /* every listed name must exist */
    const size_t len = strcspn(p, ",");
    int known = 0;
    for (int k = 0; k < kKernelCount; ++k)
      known |= strlen(kKernels[k]->name) == len && strncmp(kKernels[k]->name, p, len) == 0;
    if (!known) {
      fprintf(stderr, "%s: unknown kernel '%.*s'\n", argv[0], (int)len, p);
      return 2;
    }
    p += len + (p[len] == ',');
  }
  if (priority > 0) {
    /* Before the first parallel region: the runtime's threads inherit the policy. */
    const struct sched_param sp = {.sched_priority = (int)priority};
    if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
      fprintf(stderr,
              "%s: SCHED_FIFO %ld refused (%s): run as root or with CAP_SYS_NICE and an "
              "RLIMIT_RTPRIO, or without --priority (best effort)\n",
              argv[0], priority, strerror(errno));
      return 3;
    }
    mlockall(MCL_CURRENT | MCL_FUTURE);  /* best effort: a page fault is not the kernel's WCET */
  }
  ObOptions info = {.reps = runs, .inner = 1};
  int64_t* samples = malloc(sizeof(int64_t) * (size_t)runs);
  int printed_info = 0;
  int64_t breathed = ob_now_ns();  /* the last pause at SCHED_OTHER (setup and warm-up count) */
  for (int k = 0; k < kKernelCount; ++k) {
    const WcetKernel* w = kKernels[k];
    if (!listed(kernels, w->name)) continue;
    w->setup();
    for (long r = 0; r < warmup; ++r) {
      w->run();
      if (!w->check()) goto wrong;
    }
    if (!printed_info) {
      ob_print_info("wcet", &info);
      printed_info = 1;
    }
    double sum = 0;
    for (long r = 0; r < runs; ++r) {
      if (priority > 0 && ob_now_ns() - breathed >= kBreathEveryNs) {
        breathe((int)priority);
        breathed = ob_now_ns();
      }
      const int64_t t0 = ob_now_ns();
      w->run();
      samples[r] = ob_now_ns() - t0;
      sum += (double)samples[r];
      if (!w->check()) goto wrong;
    }
    qsort(samples, (size_t)runs, sizeof(int64_t), cmp_i64);
    printf("{\"type\":\"row\",\"bench\":\"wcet\",\"kernel\":\"%s\",\"suite\":\"%s\",\"threads\":%d,"
           "\"runs\":%ld,\"priority\":%ld,\"ok\":true,\"min_ns\":%lld,\"p50_ns\":%lld,"
           "\"p99_ns\":%lld,\"max_ns\":%lld,\"mean_ns\":%.1f}\n",
           w->name, w->suite, omp_get_max_threads(), runs, priority, (long long)samples[0],
           (long long)rank(samples, runs, 50), (long long)rank(samples, runs, 99),
           (long long)samples[runs - 1], sum / (double)runs);
    fflush(stdout);
    continue;
  wrong:
    printf("{\"type\":\"row\",\"bench\":\"wcet\",\"kernel\":\"%s\",\"suite\":\"%s\",\"ok\":false}\n",
           w->name, w->suite);
    fprintf(stderr, "%s: %s computed a wrong result (differs from its serial reference)\n",
            argv[0], w->name);
    return 4;
  }
  free(samples);
  return 0;
}
