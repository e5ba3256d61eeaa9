/* rtpar_kernel.h — the C ABI for task code loaded from a shared object.
 *
 * A task written `kernel = "lib:./libfoo.so:my_job"` runs `void my_job(const rtpar_job* job)`
 * once per job on the task's master thread. The path is taken only from the task-set file and is
 * resolved against the file's directory; the library is loaded when the file is loaded. */
#ifndef RTPAR_KERNEL_H
#define RTPAR_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rtpar_job describes the job being run. */
typedef struct rtpar_job { /* NOLINT(readability-identifier-naming): C ABI */
  int64_t index;           /* 0-based job number within the task */
  int64_t release_ns;      /* absolute CLOCK_MONOTONIC release time */
  int32_t threads;         /* size of the task's fork/join team */
  void* runtime;           /* opaque: pass the job to rtpar_parallel_for */
  void* channels;          /* opaque: pass the job to rtpar_channel_write / rtpar_channel_read */
} rtpar_job;

/* rtpar_kernel_fn is the type of a kernel symbol. */
typedef void (*rtpar_kernel_fn)(const rtpar_job* job);

/* rtpar_parallel_for calls body(i, ctx) for every i in [0, n) on the job's team, each member
 * taking one contiguous block, and returns when all are done. */
void rtpar_parallel_for(const rtpar_job* job, int64_t n, void (*body)(int64_t i, void* ctx),
                        void* ctx);

/* rtpar_channel_write publishes size bytes from src on the named [[channel]], which this task must
 * write and whose size must be exactly size. Returns 0, or -1 (not this task's channel, wrong
 * size, or a lock-order / ceiling error of a lock channel). */
int rtpar_channel_write(const rtpar_job* job, const char* channel, const void* src, size_t size);

/* rtpar_channel_read copies the named channel's current value (exactly size bytes) into dst.
 * Returns 1 for a complete value, 0 when a retry channel's read failed after numtries attempts
 * (dst holds the last attempt), -1 on error as for rtpar_channel_write. */
int rtpar_channel_read(const rtpar_job* job, const char* channel, void* dst, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* RTPAR_KERNEL_H */
