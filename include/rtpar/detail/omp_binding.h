/* rtpar/detail/omp_binding.h — not API: the C ABI between rtpar's executor (librtpar, which loads
 * `kernel = "omp:PATH:SYMBOL"` task code) and rtpar's OpenMP runtime (librtpar-omp, installed as
 * libgomp.so.1). The executor finds these functions with dlsym in the runtime it loaded, so
 * librtpar never links against the OpenMP runtime and a program not using OpenMP never loads it.
 * They live in the RTPAR_OMP_1.0 version node (src/omp/libgomp.map), beside GCC's nodes.
 * docs/internals/openmp.md, "Bound masters". */
#ifndef RTPAR_DETAIL_OMP_BINDING_H
#define RTPAR_DETAIL_OMP_BINDING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RTPAR_OMP_BINDING_VERSION is the layout version of rtpar_omp_binding (2: member hooks). */
#define RTPAR_OMP_BINDING_VERSION 2

/* rtpar_omp_member_hooks are the executor's per-member job hooks (rtpar::MemberJobHooks: the
 * workers' CPU-time budgets, docs/reliability.md "Budgets") in C: each function gets ctx and the
 * worker's rank (1..ncpus-1) and runs on that worker, as team.cpp's "Member jobs" describe. */
typedef struct rtpar_omp_member_hooks { /* NOLINT(readability-identifier-naming): C ABI */
  void* ctx;
  void (*started)(void* ctx, int32_t rank);   /* once, before the worker's first job */
  void (*job_begin)(void* ctx, int32_t rank); /* before its first region of a job */
  void (*job_end)(void* ctx, int32_t rank);   /* once it knows the job it began is over */
  int32_t (*demoted)(void* ctx, int32_t rank); /* nonzero: its open job was demoted */
  void (*exiting)(void* ctx, int32_t rank);   /* once, when it leaves the team */
} rtpar_omp_member_hooks;

/* rtpar_omp_binding is what a real-time task gives the OpenMP runtime about itself: the regions
 * its master thread opens run on these CPUs (member r on cpus[r], the master being member 0),
 * never on more threads than CPUs, with this wait policy inside a region. */
typedef struct rtpar_omp_binding { /* NOLINT(readability-identifier-naming): C ABI */
  int32_t version;                 /* RTPAR_OMP_BINDING_VERSION */
  int32_t ncpus;                   /* the task's team size, ≥ 1 */
  const int32_t* cpus;             /* [ncpus] CPU of each member; -1: not pinned */
  int32_t wait;                    /* 0 spin, 1 block, 2 hybrid (rtpar::WaitKind order) */
  int64_t spin_ns;                 /* hybrid: how long to spin before sleeping */
  /* hooks: installed on the workers of the team of all ncpus members (the task's team; a smaller
   * num_threads team has other workers and runs without); NULL: none. Must outlive the master. */
  const rtpar_omp_member_hooks* hooks;
} rtpar_omp_binding;

/* rtpar_omp_bind_fn is the type of rtpar_omp_bind: makes the calling thread the bound master of a
 * task, creates its team's workers (at the caller's scheduling class and priority, pinned per the
 * binding) by running one empty region, and returns an opaque handle; NULL on failure, with a
 * message in err (at most errlen bytes, NUL-terminated). Call once per thread, before its first
 * job. */
typedef void* (*rtpar_omp_bind_fn)(const rtpar_omp_binding* binding, char* err, size_t errlen);

/* rtpar_omp_worker_tids_fn is the type of rtpar_omp_worker_tids: writes the Linux thread ids of
 * every worker of the bound master's teams (at most cap) and returns how many there are. Call
 * while the master cannot create a team (before its first job or after it ended). */
typedef int32_t (*rtpar_omp_worker_tids_fn)(void* handle, int32_t* tids, int32_t cap);

/* rtpar_omp_unbind_fn is the type of rtpar_omp_unbind: ends the workers of every team of the bound
 * master (they leave their jobs and run the member hooks' exiting). Call once, after the master's
 * last job and after what needs the workers (worker tids, trace); the handle takes no job after. */
typedef void (*rtpar_omp_unbind_fn)(void* handle);

/* rtpar_omp_job_start_fn is the type of rtpar_omp_job_start, called by the bound master at the
 * start of every job with the next job's release (absolute CLOCK_MONOTONIC ns): the teams'
 * workers sleep on their own timers until then once the job is over (rtpar::Team::expect_release).
 */
typedef void (*rtpar_omp_job_start_fn)(void* handle, int64_t next_release_ns);

/* rtpar_omp_job_end_fn is the type of rtpar_omp_job_end, called by the bound master after every
 * job: the teams' workers stop waiting per the task's policy and sleep until the next job. Inside a
 * job they wait per the policy between regions (they are not parked at each region's end). */
typedef void (*rtpar_omp_job_end_fn)(void* handle);

/* rtpar_omp_set_unbound_cpus_fn is the type of rtpar_omp_set_unbound_cpus: the CPUs on which the
 * workers of regions opened by threads that are not bound masters run (a non-real-time team on
 * the system's nonrt_cores). Call before any such region. Returns 0, or -1 for an empty list. */
typedef int32_t (*rtpar_omp_set_unbound_cpus_fn)(const int32_t* cpus, int32_t n);

/* rtpar_omp_slice is one region share of a bound team's worker: the job it belongs to and its
 * [start, end) in absolute CLOCK_MONOTONIC ns (the worker's part of the region, its end barrier
 * included). */
typedef struct rtpar_omp_slice { /* NOLINT(readability-identifier-naming): C ABI */
  int64_t job;
  int64_t start_ns;
  int64_t end_ns;
} rtpar_omp_slice;
/* rtpar_omp_trace_fn is the type of rtpar_omp_trace: makes the bound master's top-level team
 * record each worker's share of every region, into storage preallocated now for `jobs` jobs
 * (RTPAR_OMP_TRACE_SLICES_PER_JOB slices each; a job's later regions extend its last slice).
 * Call after rtpar_omp_bind and before the first job. Returns 0, or -1 without a bound team. */
typedef int32_t (*rtpar_omp_trace_fn)(void* handle, int64_t jobs);
/* RTPAR_OMP_TRACE_SLICES_PER_JOB is how many slices per job a worker keeps (rtpar_omp_trace). */
#define RTPAR_OMP_TRACE_SLICES_PER_JOB 4
/* rtpar_omp_trace_job_fn is the type of rtpar_omp_trace_job: names the job whose regions follow
 * (the bound master, before the job's first region; a region's fork publishes it). */
typedef void (*rtpar_omp_trace_job_fn)(void* handle, int64_t job);
/* rtpar_omp_trace_take_fn is the type of rtpar_omp_trace_take: copies at most cap slices of
 * worker `rank` (1..ncpus-1) of the team of all ncpus members into out, stores the number of
 * slices it could not keep in *dropped and the worker's Linux thread id in *tid (0: unknown), and
 * returns how many slices it has (call with cap 0 to size out). Call when the master cannot open
 * a region (after its last job). Regions of fewer members (num_threads) are not traced. */
typedef int64_t (*rtpar_omp_trace_take_fn)(void* handle, int32_t rank, rtpar_omp_slice* out,
                                           int64_t cap, int64_t* dropped, int32_t* tid);
#ifdef __cplusplus
}
#endif

#endif /* RTPAR_DETAIL_OMP_BINDING_H */
