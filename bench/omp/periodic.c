/* periodic.c — rtpar-bench-omp-periodic: one parallel region released periodically, the way a
 * real-time task runs (docs/bench-omp.md). Built once with `gcc -fopenmp -O2`, run unchanged on
 * every runtime and wait policy.
 *
 * The master sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until release k
 * (start + k × period; releases never slip, so a stall delays every release it covers), then runs
 * `#pragma omp parallel` with each thread running the delay (~0.1 us). A sample is the release's
 * response time: region end minus release time (wake-up latency + fork + body + join).
 *
 * With --priority P > 0 the master asks for SCHED_FIFO P before the first region, and every team
 * member sets it on itself in an untimed first region (the runtime's threads may be created
 * before, or not inherit the policy). Where that is refused (no CAP_SYS_NICE) the run stays at
 * SCHED_OTHER and says so ("sched":"other"). At SCHED_FIFO, a worker that spins between regions
 * (OMP_WAIT_POLICY=active) eats its CPU's RT budget; the kernel's RT throttling
 * (sched_rt_runtime_us) then stops it for the rest of the throttling period and the region waits
 * for it: a stall of tens of ms, counted as a release whose response time exceeds --stall-ns. */
#include <pthread.h>

#include "omp_bench.h"

/* kBench names this program's rows. */
static const char* const kBench = "periodic";
/* kWarmupReleases are untimed releases first (steady state: workers parked, caches warm). */
#define kWarmupReleases 5
/* kStallNs is the response time from which a release counts as a stall (10 ms: longer than any
 * wake-up latency, shorter than the 50 ms an RT-throttled CPU loses per second by default). */
#define kStallNs 10000000L

/* set_policy sets the calling thread's policy (SCHED_FIFO prio, or SCHED_OTHER when prio is 0);
 * returns 1 if the thread now has it. */
static int set_policy(int prio) {
  struct sched_param sp = {.sched_priority = prio};
  return pthread_setschedparam(pthread_self(), prio > 0 ? SCHED_FIFO : SCHED_OTHER, &sp) == 0;
}

/* team_set_policy sets the policy on every member of a team; returns how many have it. */
static int team_set_policy(int prio) {
  int have = 0;
#pragma omp parallel reduction(+ : have)
  have += set_policy(prio);
  return have;
}

/* sleep_until sleeps until the absolute CLOCK_MONOTONIC time t_ns (retrying after signals). */
static void sleep_until(int64_t t_ns) {
  const struct timespec ts = {.tv_sec = t_ns / 1000000000, .tv_nsec = t_ns % 1000000000};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

int main(int argc, char** argv) {
  ObOptions o = {.reps = 1,
                 .inner = 1,
                 .delay_ns = 100.0,
                 .releases = 2000,
                 .period_ns = 1000000,
                 .priority = 50};
  ob_parse(argc, argv, &o);
  if (o.releases < 1 || o.period_ns < 10000 || o.priority > 99) {
    fprintf(stderr, "%s: --releases >= 1, --period-ns >= 10000, --priority 0..99\n", argv[0]);
    return 2;
  }
  const int nt = omp_get_max_threads();
  int fifo = o.priority > 0 && set_policy(o.priority);
  int fifo_threads = 0;
  if (fifo) {
    fifo_threads = team_set_policy(o.priority); /* also starts the runtime's threads */
    if (fifo_threads < nt) { /* a member refused: run everything at SCHED_OTHER */
      team_set_policy(0);
      set_policy(0);
      fifo = 0;
      fifo_threads = 0;
    }
  }
  const int locked = fifo && mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
  if (!fifo) team_set_policy(0); /* starts the runtime's threads */
  ob_print_info(kBench, &o);

  double* response = ob_alloc_samples(o.releases);
  long overruns = 0, stalls = 0;
  int64_t max_region = 0;
  const long d = o.delay_iters;
  int64_t release = ob_now_ns() + o.period_ns;
  for (long r = -kWarmupReleases; r < o.releases; ++r, release += o.period_ns) {
    sleep_until(release);
    const int64_t t0 = ob_now_ns();
#pragma omp parallel
    ob_delay(d);
    const int64_t t1 = ob_now_ns();
    if (r < 0) continue;
    response[r] = (double)(t1 - release);
    if (t1 - t0 > max_region) max_region = t1 - t0;
    if (t1 - release > o.period_ns) ++overruns;
    if (t1 - release > kStallNs) ++stalls;
  }
  /* Back to SCHED_OTHER on every thread first: active workers spin until the process exits and
   * must not do so at SCHED_FIFO. */
  if (fifo) team_set_policy(0);
  set_policy(0);

  char extra[400];
  snprintf(extra, sizeof extra,
           "\"sched\":\"%s\",\"priority\":%d,\"fifo_threads\":%d,\"mlocked\":%s,"
           "\"period_ns\":%ld,\"releases\":%ld,\"overruns\":%ld,\"stall_threshold_ns\":%ld,"
           "\"stalls\":%ld,\"max_region_ns\":%lld",
           fifo ? "fifo" : "other", fifo ? o.priority : 0, fifo_threads, locked ? "true" : "false",
           o.period_ns, o.releases, overruns, kStallNs, stalls, (long long)max_region);
  ob_print_row(kBench, "PERIODIC", response, o.releases, extra);
  free(response);
  return 0;
}
