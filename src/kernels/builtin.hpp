// builtin.hpp — constructors of the built-in kernels, used by the registry.
#pragma once

#include "kernels/args.hpp"
#include "kernels/registry.hpp"

namespace rtpar::kernels {

// make_spin builds `spin`: each job consumes the task's work C of thread CPU time (span = C).
KernelBuild make_spin(const Args& args);

// make_segments builds `segments`: a parallel-synchronous job, one parallel_for per segment.
KernelBuild make_segments(const Args& args, const std::string& file);

// make_segments_kernel builds the `segments` kernel for structure given as [[task.segment]].
std::shared_ptr<Kernel> make_segments_kernel(const std::vector<SegmentSpec>& segments);

// make_matmul builds `matmul`: C = A·B on n×n doubles, rows split over the team (or, with
// runtime = "steal", by steal::parallel_for).
KernelBuild make_matmul(const Args& args);

// make_fib builds `fib`: naive fib(n) by join at every call (spawn-bound), checked each job.
KernelBuild make_fib(const Args& args);
// make_uts builds `uts`: a binomial unbalanced tree search, one Scope spawn per child; every job's
// node count is checked against the serial count.
KernelBuild make_uts(const Args& args);
// make_heat builds `heat`: 2-D Jacobi sweeps, one parallel_for over the rows per sweep; every
// job's grid is checked against the serial result.
KernelBuild make_heat(const Args& args);
// make_library builds `lib:PATH:SYMBOL`: a C-ABI function from a shared object.
KernelBuild make_library(const KernelRequest& request, const Args& args);

// burn_cpu spins until the calling thread has consumed `amount` of CPU time. Preemption does not
// shorten it, so a job's work is the same however it is scheduled.
void burn_cpu(Duration amount) noexcept;

}  // namespace rtpar::kernels
