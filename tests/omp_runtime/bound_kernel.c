/* bound_kernel.c — an `omp:` kernel that checks what rtpar's OpenMP runtime promises a real-time
 * task (docs/openmp.md, "OpenMP code as real-time tasks"): its regions have exactly the task's
 * team size whatever num_threads asks, every member is pinned to one CPU, a nested region is
 * serialized, and a region opened by a non-real-time thread of the process gets SCHED_OTHER
 * workers on the system's nonrt_cores (RTPAR_TEST_NONRT_CPU). Any failed check prints
 * "FAIL ..." and aborts, which fails the run. */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <rtpar/rtpar_kernel.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      fprintf(stderr, "FAIL bound_kernel.c:%d: ", __LINE__); \
      fprintf(stderr, __VA_ARGS__);                       \
      fputc('\n', stderr);                                \
      abort();                                            \
    }                                                     \
  } while (0)

/* single_cpu is the one CPU the calling thread may run on, or -1 when it may run on several. */
static int single_cpu(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1) return -1;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) return c;
  }
  return -1;
}

/* nonrt_region opens a region of 2 from a SCHED_OTHER thread that may run anywhere. */
static void* nonrt_region(void* arg) {
  int* worker_cpu = arg;
  int worker_policy = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) {
      *worker_cpu = single_cpu();
      worker_policy = sched_getscheduler(0);
    }
  }
  CHECK(worker_policy == SCHED_OTHER, "non-RT region's worker policy %d", worker_policy);
  return NULL;
}

void bound_job(const rtpar_job* job) {
  int team = 0;
  int unpinned = 0;
  int nested = 0;
  omp_set_max_active_levels(4); /* would allow nested teams in a plain program */
#pragma omp parallel num_threads(8) reduction(+ : unpinned)
  {
#pragma omp single
    team = omp_get_num_threads();
    if (single_cpu() < 0) unpinned += 1;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      nested += omp_get_num_threads();
    }
  }
  CHECK(team == job->threads, "num_threads(8): team of %d, the task has %d", team, job->threads);
  CHECK(unpinned == 0, "%d members not pinned to one CPU", unpinned);
  CHECK(nested == team, "nested regions not serialized: %d members counted", nested);
  if (job->index == 0) {
    const char* want = getenv("RTPAR_TEST_NONRT_CPU");
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    struct sched_param param = {0};
    pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
    pthread_attr_setschedparam(&attr, &param);
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < 2; ++c) CPU_SET(c, &all);
    pthread_attr_setaffinity_np(&attr, sizeof all, &all);
    pthread_t thread;
    int worker_cpu = -2;
    CHECK(pthread_create(&thread, &attr, nonrt_region, &worker_cpu) == 0, "pthread_create");
    /* pthread_attr_setaffinity_np allocates the attribute's CPU set: without this, LSan reports
     * it (280 bytes) at exit in the ASan build. */
    pthread_attr_destroy(&attr);
    pthread_join(thread, NULL);
    if (want != NULL) {
      CHECK(worker_cpu == atoi(want), "non-RT region's worker on CPU %d, want %s", worker_cpu,
            want);
    }
  }
}

/* thread_cpu_ns is the calling thread's CPU time. */
static long long thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* worker_burn_job: one region per job in which every worker (rank >= 1) burns 3 ms of its own CPU
 * time and the master none, so that only the workers can go over a budget (omp_kernel_test.sh
 * `budget`: the OpenMP workers of an omp: kernel are measured, docs/reliability.md "Budgets"). */
void worker_burn_job(const rtpar_job* job) {
  (void)job;
#pragma omp parallel
  {
    if (omp_get_thread_num() != 0) {
      const long long until = thread_cpu_ns() + 3000000;
      while (thread_cpu_ns() < until) {
      }
    }
  }
}
