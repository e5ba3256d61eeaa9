// cpu_timed.hpp — a Kernel decorator that records the CPU time of every job it runs, for `rtpar
// profile`. It wraps whatever code a task has (any kernel kind: built-in, lib:, omp:, bound), so
// the profiler measures through the normal instantiation and executor path with no special case.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rtpar/ext/kernel.hpp"

namespace rtpar::kernels {

// CpuTimedKernel forwards every call to `inner` and, around each run(), reads the process CPU-time
// clock (CLOCK_PROCESS_CPUTIME_ID): the CPU time all of the process's threads spent during the job.
// With the task alone on one core this is the job's work without the time other processes
// preempted it for (which a wall-clock measurement would count), and it includes any helper
// thread the kernel runs (an OpenMP runtime's, say). Strand-level runs (run_strand) are forwarded
// unmeasured. Samples are preallocated: run() allocates nothing.
class CpuTimedKernel final : public Kernel {
 public:
  // CpuTimedKernel wraps inner and keeps up to `capacity` samples (later jobs are not timed).
  CpuTimedKernel(std::shared_ptr<Kernel> inner, std::size_t capacity);

  // prepare, run_strand, supports_strands, owns_threads, start_master, job_started,
  // job_finished and worker_tids forward to the wrapped kernel; run times it.
  // Extension point: a virtual added to Kernel must be forwarded here too, or the profiled
  // kernel silently gets the default instead of its own.
  void prepare(const KernelSetup& setup) override;
  void run(JobContext& job) override;
  bool run_strand(JobContext& job, int segment, std::int64_t strand) override;
  [[nodiscard]] bool supports_strands() const override;
  [[nodiscard]] bool owns_threads() const override;
  void start_master(const KernelSetup& setup) override;
  void job_started(std::int64_t next_release_ns) noexcept override;
  void job_finished() noexcept override;
  [[nodiscard]] std::vector<int> worker_tids() const override;

  // samples is the CPU time of each job run, in ns, in job order. Read after the run joined its
  // threads (the master wrote them; the join orders the writes before this read).
  [[nodiscard]] std::vector<std::int64_t> samples() const;

 private:
  std::shared_ptr<Kernel> inner_;
  std::vector<std::int64_t> samples_;  // sized once; used_ counts the filled prefix
  std::size_t used_ = 0;
};

}  // namespace rtpar::kernels
