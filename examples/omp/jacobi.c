/* jacobi.c — an unchanged OpenMP job as a periodic real-time task (docs/openmp.md, "OpenMP code
 * as real-time tasks"). Built with `gcc -fopenmp -shared` into libjacobi.so and declared in
 * omp_demo.toml as `kernel = "omp:./libjacobi.so:jacobi_job"`: every job runs one Jacobi sweep
 * of a heat plate (a `parallel` region with a `single`, a `for` with a max-reduction) on the
 * task's planned cores, and publishes the sweep's residual on the "residual" channel, which the
 * light task `monitor` (monitor_job) checks. Nothing here knows about rtpar except the job
 * signature and the channel calls: the pragmas are plain OpenMP. */
#define _GNU_SOURCE /* sched_getcpu */
#include <math.h>
#include <omp.h>
#include <rtpar/rtpar_kernel.h>
#include <sched.h>
#include <stdlib.h>

#define N 640 /* plate side: N x N points, the first row held at 100 degrees */

/* residual is the channel payload: one sweep's result, as the monitor checks it. */
struct residual {
  int64_t job;      /* the job (sweep) number */
  double change;    /* max |new - old| over the plate in this sweep */
  int32_t threads;  /* omp_get_num_threads() inside the region */
  int32_t cpus;     /* bit c set: some member ran on CPU c (c < 32) */
};

static double plate[2][N][N];

void jacobi_job(const rtpar_job* job) {
  const int from = (int)(job->index & 1);
  const int to = 1 - from;
  double change = 0.0;
  int threads = 0;
  unsigned cpus = 0;
#pragma omp parallel reduction(| : cpus)
  {
#pragma omp single
    {
      threads = omp_get_num_threads();
      if (job->index == 0) { /* initial conditions, written once by one member */
        for (int j = 0; j < N; ++j) plate[0][0][j] = plate[1][0][j] = 100.0;
      }
    }
#pragma omp for reduction(max : change) schedule(static)
    for (int i = 1; i < N - 1; ++i) {
      for (int j = 1; j < N - 1; ++j) {
        const double v = 0.25 * (plate[from][i - 1][j] + plate[from][i + 1][j] +
                                 plate[from][i][j - 1] + plate[from][i][j + 1]);
        change = fmax(change, fabs(v - plate[from][i][j]));
        plate[to][i][j] = v;
      }
    }
    const int cpu = sched_getcpu();
    if (cpu >= 0 && cpu < 32) cpus |= 1u << cpu;
  }
  const struct residual r = {job->index, change, threads, (int32_t)cpus};
  if (rtpar_channel_write(job, "residual", &r, sizeof r) != 0) abort();
}

/* monitor_job checks the latest sweep: Jacobi's max change never grows from one sweep to a later
 * one (the iteration matrix has infinity-norm 1), the region ran on the task's whole team, and
 * only on the CPUs named by RTPAR_OMP_DEMO_CPUS (a bit mask; unset: not checked). */
void monitor_job(const rtpar_job* job) {
  static int64_t last_job = -1;
  static double last_change = INFINITY;
  struct residual r;
  if (rtpar_channel_read(job, "residual", &r, sizeof r) != 1) abort();
  if (r.threads == 0) return; /* nothing written yet */
  if (r.job < last_job) abort();
  /* (a relative ulp-scale slack: the max is exact, each point's update rounds once) */
  if (r.job > last_job && r.change > last_change * (1 + 1e-12) + 1e-300) abort();
  static long allowed = -1;
  if (allowed == -1) {
    const char* s = getenv("RTPAR_OMP_DEMO_CPUS");
    allowed = s != NULL ? strtol(s, NULL, 0) : 0;
  }
  if (allowed > 0 && ((unsigned)r.cpus & ~(unsigned)allowed) != 0) abort();
  const char* want = getenv("RTPAR_OMP_DEMO_THREADS");
  if (want != NULL && r.threads != atoi(want)) abort();
  last_job = r.job;
  last_change = r.change;
}
