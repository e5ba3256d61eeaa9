/* looptasks.c — rtpar-omp-looptasks: OpenMP-RT Table 2's baseline (OpenMP-RT §5.2): a task set
 * run "using OpenMP's task framework (using loops & delays for periodicity)", with no admission
 * control, no placement and no real-time priority. Built with `gcc -fopenmp -O2` against stock
 * libgomp; `rtpar experiment` runs it for a runtime series with `baseline = "openmp-tasks"`
 * (docs/experiments.md, "OpenMP-RT Table 2").
 *
 * usage: rtpar-omp-looptasks --tasks FILE --duration-ms N [--cores M]
 * FILE has one task per line: `name period_ns deadline_ns work_ns span_ns threads phase_ns`.
 *
 * The program: one `#pragma omp parallel` of (tasks + M) threads, SCHED_OTHER, unpinned (the
 * runtime's defaults); its `single` thread creates one OpenMP task per periodic task, and each such
 * task is a loop: sleep until release k (phase + k × period, absolute, so releases never drift —
 * the kindest reading of "delay"), run the job, record its response, repeat. A job of a task with
 * threads > 1 burns its span itself and gives the rest of its work to child tasks of at most one
 * span each, then waits for them (taskwait): the M extra threads, idle at the region's barrier,
 * are what runs children in parallel, as they would in a plain OpenMP program. Work is CPU time
 * (CLOCK_THREAD_CPUTIME_ID), as rtpar's `spin` kernel burns it, so preemption delays a job but
 * never shortens it. A late job starts at once (releases queue, as in rtpar's executor); at the
 * end of the run, a job not yet started is cancelled and not counted, as rtpar's executor does.
 *
 * Deadlines are the RT-Task version's (the paper's rule): a job misses when it finishes after
 * release + deadline. Prints one JSON document: per task, jobs, misses, max and mean response.
 * Exit status: 0, or 2 on bad arguments or input. */
#define _GNU_SOURCE
#include <errno.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* kMaxTasks bounds the set (the generators draw at most a few dozen tasks per set). */
#define kMaxTasks 256

/* Task is one line of the task file plus what its loop measured. */
typedef struct {
  char name[64];
  int64_t period, deadline, work, span, phase;
  int threads;
  int64_t jobs, misses, max_response;
  double sum_response;
} Task;

static Task tasks[kMaxTasks];
static int ntasks;

/* now_ns reads CLOCK_MONOTONIC in ns. */
static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* cpu_ns reads the calling thread's CPU time in ns. */
static int64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* burn spends amount ns of this thread's CPU time. */
static void burn(int64_t amount) {
  const int64_t until = cpu_ns() + amount;
  while (cpu_ns() < until) {
  }
}

/* sleep_until sleeps until the absolute CLOCK_MONOTONIC time t (retrying after signals). */
static void sleep_until(int64_t t) {
  const struct timespec ts = {.tv_sec = t / 1000000000, .tv_nsec = t % 1000000000};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

/* run_job runs one job of t: its span here, the rest of its work in child tasks. */
static void run_job(const Task* t) {
  if (t->threads <= 1 || t->span >= t->work) {
    burn(t->work);
    return;
  }
  for (int64_t rest = t->work - t->span; rest > 0; rest -= t->span) {
    const int64_t piece = rest < t->span ? rest : t->span;
#pragma omp task firstprivate(piece)
    burn(piece);
  }
  burn(t->span);
#pragma omp taskwait
}

/* loop is one periodic task: releases from start + phase every period until end. */
static void loop(Task* t, int64_t start, int64_t end) {
  for (int64_t release = start + t->phase; release < end; release += t->period) {
    if (now_ns() < release) sleep_until(release);
    if (now_ns() >= end) break; /* a job still pending at the end is cancelled, as rtpar's is */
    run_job(t);
    const int64_t response = now_ns() - release;
    t->jobs += 1;
    if (response > t->deadline) t->misses += 1;
    if (response > t->max_response) t->max_response = response;
    t->sum_response += (double)response;
  }
}

/* usage prints the command line and exits 2. */
static void usage(const char* why) {
  fprintf(stderr,
          "rtpar-omp-looptasks: %s\nusage: rtpar-omp-looptasks --tasks FILE --duration-ms N "
          "[--cores M]\n",
          why);
  exit(2);
}

/* read_tasks fills tasks[] from path; exits 2 naming the line on a malformed one. */
static void read_tasks(const char* path) {
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "rtpar-omp-looptasks: %s: %s\n", path, strerror(errno));
    exit(2);
  }
  char line[512];
  int lineno = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    ++lineno;
    if (line[0] == '#' || line[0] == '\n') continue;
    if (ntasks == kMaxTasks) usage("more than 256 tasks");
    Task* t = &tasks[ntasks];
    long long period, deadline, work, span, phase;
    int threads;
    if (sscanf(line, "%63s %lld %lld %lld %lld %d %lld", t->name, &period, &deadline, &work, &span,
               &threads, &phase) != 7 ||
        period <= 0 || deadline <= 0 || work <= 0 || span <= 0 || span > work || threads < 1 ||
        phase < 0) {
      fprintf(stderr,
              "rtpar-omp-looptasks: %s:%d: expected `name period_ns deadline_ns work_ns "
              "span_ns threads phase_ns` with positive values, span <= work\n",
              path, lineno);
      exit(2);
    }
    t->period = period;
    t->deadline = deadline;
    t->work = work;
    t->span = span;
    t->threads = threads;
    t->phase = phase;
    ++ntasks;
  }
  fclose(f);
  if (ntasks == 0) usage("the task file has no task");
}

int main(int argc, char** argv) {
  const char* file = NULL;
  long long duration_ms = -1;
  int cores = 1;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--tasks") == 0 && i + 1 < argc) {
      file = argv[++i];
    } else if (strcmp(argv[i], "--duration-ms") == 0 && i + 1 < argc) {
      char* end;
      duration_ms = strtoll(argv[++i], &end, 10);
      if (*end != '\0' || duration_ms <= 0 || duration_ms > 3600000) usage("bad --duration-ms");
    } else if (strcmp(argv[i], "--cores") == 0 && i + 1 < argc) {
      char* end;
      cores = (int)strtol(argv[++i], &end, 10);
      if (*end != '\0' || cores < 1 || cores > 1024) usage("bad --cores");
    } else {
      usage(argv[i]);
    }
  }
  if (file == NULL || duration_ms < 0) usage("--tasks and --duration-ms are required");
  read_tasks(file);

  /* The first release is 10 ms after start-up, so that every thread exists before any job. */
  const int64_t start = now_ns() + 10000000;
  const int64_t end = start + duration_ms * 1000000;
#pragma omp parallel num_threads(ntasks + cores)
#pragma omp single
  for (int i = 0; i < ntasks; ++i) {
#pragma omp task firstprivate(i) untied
    loop(&tasks[i], start, end);
  }

  printf("{\"runtime\": \"%s\", \"threads\": %d, \"duration_ms\": %lld, \"tasks\": [",
         "openmp-tasks", ntasks + cores, duration_ms);
  for (int i = 0; i < ntasks; ++i) {
    const Task* t = &tasks[i];
    printf(
        "%s\n  {\"name\": \"%s\", \"deadline_ns\": %lld, \"jobs\": %lld, \"misses\": %lld, "
        "\"max_response_ns\": %lld, \"mean_response_ns\": %.0f}",
        i == 0 ? "" : ",", t->name, (long long)t->deadline, (long long)t->jobs,
        (long long)t->misses, (long long)t->max_response,
        t->jobs > 0 ? t->sum_response / (double)t->jobs : 0.0);
  }
  printf("\n]}\n");
  return 0;
}
