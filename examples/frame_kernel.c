/* frame_kernel.c — task code in a shared object, loaded by `kernel = "lib:PATH:frame_job"`.
 * Each job smooths a frame in parallel over the task's team through the C ABI. */
#include <rtpar/rtpar_kernel.h>

#define WIDTH 256
#define HEIGHT 256

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
}
