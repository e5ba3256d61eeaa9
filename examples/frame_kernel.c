/* frame_kernel.c — task code in a shared object, loaded by `kernel = "lib:PATH:SYMBOL"`.
 * frame_job smooths a frame in parallel over the task's team and publishes a summary on the
 * "stats" channel; stats_job (another task) reads it. Both use only the C ABI of rtpar_kernel.h. */
#include <rtpar/rtpar_kernel.h>
#include <stdlib.h>

#define WIDTH 256
#define HEIGHT 256

/* stats is the channel payload: a frame number and a check word derived from it. */
struct stats {
  int64_t frame;
  int64_t check;
};

static float frame[HEIGHT][WIDTH];
static float out[HEIGHT][WIDTH];

static void smooth_row(int64_t y, void* ctx) {
  (void)ctx;
  for (int x = 1; x + 1 < WIDTH; ++x) {
    out[y][x] = (frame[y][x - 1] + frame[y][x] + frame[y][x + 1]) / 3.0f + 1.0f;
  }
}

void frame_job(const rtpar_job* job) {
  rtpar_parallel_for(job, HEIGHT, smooth_row, 0);
  frame[job->index % HEIGHT][0] = out[0][1];
  const struct stats s = {job->index + 1, ~(job->index + 1)};
  if (rtpar_channel_write(job, "stats", &s, sizeof s) != 0) abort();
}

void stats_job(const rtpar_job* job) {
  struct stats s;
  const int rc = rtpar_channel_read(job, "stats", &s, sizeof s);
  /* A latest channel never fails and never tears: anything else is a bug worth a crash here. */
  if (rc != 1 || (s.frame != 0 && s.check != ~s.frame)) abort();
}
