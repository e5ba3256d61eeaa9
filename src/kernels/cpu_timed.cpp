// cpu_timed.cpp — see cpu_timed.hpp.
#include "kernels/cpu_timed.hpp"

#include <time.h>

#include <utility>

namespace rtpar::kernels {

namespace {

// process_cpu_now reads CLOCK_PROCESS_CPUTIME_ID in ns: the CPU time of every thread of the
// process (a vDSO-less syscall, ≈ 1 µs: paid twice per job, outside what the job measures).
std::int64_t process_cpu_now() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

CpuTimedKernel::CpuTimedKernel(std::shared_ptr<Kernel> inner, std::size_t capacity)
    : inner_(std::move(inner)), samples_(capacity, 0) {}

void CpuTimedKernel::prepare(const KernelSetup& setup) { inner_->prepare(setup); }

void CpuTimedKernel::run(JobContext& job) {
  const std::int64_t before = process_cpu_now();
  inner_->run(job);  // an exception propagates untimed: the executor records the failure
  const std::int64_t after = process_cpu_now();
  if (used_ < samples_.size()) samples_[used_++] = after - before;
}

bool CpuTimedKernel::run_strand(JobContext& job, int segment, std::int64_t strand) {
  return inner_->run_strand(job, segment, strand);
}

bool CpuTimedKernel::supports_strands() const { return inner_->supports_strands(); }

bool CpuTimedKernel::owns_threads() const { return inner_->owns_threads(); }

void CpuTimedKernel::start_master(const KernelSetup& setup) { inner_->start_master(setup); }

void CpuTimedKernel::job_started(std::int64_t next_release_ns) noexcept {
  inner_->job_started(next_release_ns);
}

void CpuTimedKernel::job_finished() noexcept { inner_->job_finished(); }

std::vector<int> CpuTimedKernel::worker_tids() const { return inner_->worker_tids(); }

std::vector<std::int64_t> CpuTimedKernel::samples() const {
  return {samples_.begin(), samples_.begin() + static_cast<std::ptrdiff_t>(used_)};
}

}  // namespace rtpar::kernels
