/* rtpar_kernel.h — the C ABI for task code loaded from a shared object.
 *
 * A task written `kernel = "lib:./libfoo.so:my_job"` runs `void my_job(const rtpar_job* job)`
 * once per job on the task's master thread. The path is taken only from the task-set file and is
 * resolved against the file's directory; the library is loaded when the file is loaded. */
#ifndef RTPAR_KERNEL_H
#define RTPAR_KERNEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rtpar_job describes the job being run. */
typedef struct rtpar_job { /* NOLINT(readability-identifier-naming): C ABI */
  int64_t index;      /* 0-based job number within the task */
  int64_t release_ns; /* absolute CLOCK_MONOTONIC release time */
  int32_t threads;    /* size of the task's fork/join team */
  void* runtime;      /* opaque: pass the job to rtpar_parallel_for */
} rtpar_job;

/* rtpar_kernel_fn is the type of a kernel symbol. */
typedef void (*rtpar_kernel_fn)(const rtpar_job* job);

/* rtpar_parallel_for calls body(i, ctx) for every i in [0, n) on the job's team, each member
 * taking one contiguous block, and returns when all are done. */
void rtpar_parallel_for(const rtpar_job* job, int64_t n, void (*body)(int64_t i, void* ctx),
                        void* ctx);

#ifdef __cplusplus
}
#endif

#endif /* RTPAR_KERNEL_H */
