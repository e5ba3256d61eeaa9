/* pipeline_kernel.c — a camera → tracker → control pipeline (examples/pipeline.toml.in).
 *
 * camera_job "captures" a frame (a fixed amount of CPU work) and publishes its number on the
 * `frame` channel (latest); tracker_job reads the newest frame, estimates a position from it and
 * publishes it on `track` (latest), and updates the shared `model` (a lock channel, so the
 * read-modify-write is one critical section per job); control_job reads the newest track and the
 * model and "actuates". Every payload carries a check word: a torn or stale-beyond-reason value
 * aborts the run, so the example also checks the channels. Only the C ABI of rtpar_kernel.h. */
#include <rtpar/rtpar_kernel.h>
#include <stdlib.h>
#include <time.h>

/* frame is what the camera publishes. */
struct frame {
  int64_t number;
  int64_t check;
};

/* track is the tracker's estimate, from one frame. */
struct track {
  int64_t frame;
  int64_t position;
  int64_t check;
};

/* model is the state tracker and control share under the lock. */
struct model {
  int64_t updates;
  int64_t last_frame;
  int64_t check;
};

/* burn_us runs for about `us` microseconds of this thread's CPU time: the job's own work. */
static void burn_us(int64_t us) {
  struct timespec start;
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  volatile uint64_t sink = 0;
  for (;;) {
    for (int k = 0; k < 256; ++k) sink += (uint64_t)k * 2654435761u;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    const int64_t spent = (now.tv_sec - start.tv_sec) * 1000000 + (now.tv_nsec - start.tv_nsec) / 1000;
    if (spent >= us) break;
  }
}

void camera_job(const rtpar_job* job) {
  burn_us(800);
  const struct frame f = {job->index + 1, ~(job->index + 1)};
  if (rtpar_channel_write(job, "frame", &f, sizeof f) != 0) abort();
}

void tracker_job(const rtpar_job* job) {
  struct frame f;
  if (rtpar_channel_read(job, "frame", &f, sizeof f) != 1) abort();
  if (f.number != 0 && f.check != ~f.number) abort();
  burn_us(1500);
  const struct track t = {f.number, f.number * 3, ~(f.number * 3)};
  if (rtpar_channel_write(job, "track", &t, sizeof t) != 0) abort();
  struct model m = {job->index + 1, f.number, 0};
  m.check = ~(m.updates ^ m.last_frame);
  if (rtpar_channel_write(job, "model", &m, sizeof m) != 0) abort();
}

void control_job(const rtpar_job* job) {
  struct track t;
  struct model m;
  if (rtpar_channel_read(job, "track", &t, sizeof t) != 1) abort();
  if (t.frame != 0 && t.check != ~t.position) abort();
  if (rtpar_channel_read(job, "model", &m, sizeof m) != 1) abort();
  if (m.updates != 0 && m.check != ~(m.updates ^ m.last_frame)) abort();
  burn_us(300);
}
