// rtpar/ext/kernel.hpp — the code a task runs for each job.
//
// Extension point: implement Kernel (or bind a callable through rtpar::System) to give a task its
// work. Built-in kernels (spin, segments, matmul, lib:) are created from the task-set file.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rtpar/function_ref.hpp"
#include "rtpar/report.hpp"
#include "rtpar/team.hpp"
#include "rtpar/time.hpp"

namespace rtpar {

class Endpoint;
namespace steal {
class Pool;
}

// JobContext is what a job sees: its index, its release time, and the parallel runtime over its
// cores: a fork/join `team` (runtime = "team") or a work-stealing `steal` pool (runtime =
// "steal"); exactly one of the two is set while a task runs on a TaskRunner.
struct JobContext {
  std::int64_t index = 0;        // 0-based job number within the task
  std::int64_t release_ns = 0;   // absolute CLOCK_MONOTONIC release time of this job
  Team* team = nullptr;          // fork/join team on the task's cores (size 1 for a light task)
  Endpoint* channels = nullptr;  // the task's channel handles (rtpar/channel_set.hpp)
  // steal is the task's work-stealing pool (runtime = "steal"), or null. Kernels go through
  // run_parallel rather than calling steal->run themselves, so the job's profile is recorded.
  steal::Pool* steal = nullptr;
  // The job's online work, span and burdened span (docs/internals/steal.md §5), summed over the
  // run_parallel calls of this job; steal_runs counts them (0: nothing measured for this job).
  std::int64_t work_ns = 0;
  std::int64_t span_ns = 0;
  std::int64_t burdened_span_ns = 0;
  int steal_runs = 0;

  // run_parallel runs root as one work-stealing computation on the task's pool: inside it,
  // rtpar::steal::join / Scope / parallel_for run in parallel on the task's cores. Without a pool
  // (runtime = "team") root runs serially on the calling thread and nothing is measured. Adds the
  // run's work/span to this job's; rethrows root's exception (CapacityError included).
  void run_parallel(FunctionRef<void()> root);
};

// KernelSetup is what a kernel learns before the first release, so it can allocate everything it
// needs up front (nothing is allocated while jobs run).
struct KernelSetup {
  Duration work{0};       // the task's declared work C
  Duration span{0};       // the task's declared span L
  int threads = 1;        // team size (or work-stealing workers) the jobs will run on
  bool steal = false;     // the jobs run on a work-stealing pool (JobContext::steal), not a team
  std::vector<int> cpus;  // the CPU of each of the `threads` members, master first (-1: unpinned)
  WaitPolicy wait;        // how the task's members wait inside a job (the task's `wait`)
  // trace_jobs is how many jobs the run can release: room a kernel that owns its threads
  // preallocates for their trace (worker_tracks; 0: none).
  std::int64_t trace_jobs = 0;
  // member_hooks: the per-member job hooks (the workers' CPU-time budgets, docs/reliability.md
  // "Budgets") a kernel that owns its threads installs on its workers, rank r being member r of
  // `cpus`; null: none. Valid until the kernel is destroyed.
  MemberJobHooks* member_hooks = nullptr;
};

// Kernel is a task's per-job workload.
class Kernel {
 public:
  virtual ~Kernel() = default;
  // prepare is called once, before the first release, on a non-real-time thread.
  virtual void prepare(const KernelSetup& setup) { (void)setup; }
  // run executes one job. Runs on the task's master thread at its real-time priority.
  virtual void run(JobContext& job) = 0;

  // run_strand executes strand `strand` of segment `segment` of a job, for strand-level plans
  // (planners decomposition and fork-join-rta), where the executor calls it on the thread and at
  // the priority the plan gives that strand; `job.team` is null then. Extension point: kernels
  // whose jobs are parallel-synchronous override it and return true; the default returns false,
  // and the executor refuses a strand-level plan for a kernel that cannot run strand by strand.
  virtual bool run_strand(JobContext& job, int segment, std::int64_t strand) {
    (void)job;
    (void)segment;
    (void)strand;
    return false;
  }

  // supports_strands tells whether run_strand is implemented (checked before the first release).
  [[nodiscard]] virtual bool supports_strands() const { return false; }

  // owns_threads tells whether the kernel brings its own parallel runtime (an `omp:` kernel's
  // OpenMP team): the executor then creates no team workers for the task, only its master thread,
  // calls start_master there before the first release, and reports the kernel's worker_tids.
  [[nodiscard]] virtual bool owns_threads() const { return false; }

  // start_master is called once, for a kernel that owns_threads, on the task's master thread —
  // pinned to setup.cpus[0], at the task's priority — before the run starts: the kernel creates
  // its workers there, so that they inherit the master's scheduling class and no job creates a
  // thread. An exception stops the run before the first release (reported like a failed job).
  virtual void start_master(const KernelSetup& setup) { (void)setup; }

  // job_started is called on the master at the start of every job, before run(), with the next
  // job's release (absolute CLOCK_MONOTONIC ns), and job_finished after it: a kernel that
  // owns_threads lets its workers sleep on their own timers until that release, and parks them
  // between jobs (never a spin at SCHED_FIFO between jobs). Cheap; never block.
  virtual void job_started(std::int64_t next_release_ns) noexcept { (void)next_release_ns; }
  virtual void job_finished() noexcept {}

  // worker_tids lists the Linux thread ids of the kernel's own workers (after start_master).
  [[nodiscard]] virtual std::vector<int> worker_tids() const { return {}; }
  // worker_tracks moves out what the kernel's own workers recorded for trace.json (after the
  // master's last job; KernelSetup::trace_jobs sized it). The default records nothing.
  [[nodiscard]] virtual std::vector<ThreadTrack> worker_tracks() { return {}; }
  // stop_workers ends the kernel's own workers after the master's last job, once worker_tids and
  // worker_tracks were taken: their member hooks' exiting runs (KernelSetup::member_hooks), so
  // the budgets' tallies are complete. The default has no workers to stop.
  virtual void stop_workers() noexcept {}
};

}  // namespace rtpar
