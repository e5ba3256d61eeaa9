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

// make_matmul builds `matmul`: C = A·B on n×n doubles, rows split over the team.
KernelBuild make_matmul(const Args& args);

// make_library builds `lib:PATH:SYMBOL`: a C-ABI function from a shared object.
KernelBuild make_library(const KernelRequest& request, const Args& args);

// burn_cpu spins until the calling thread has consumed `amount` of CPU time. Preemption does not
// shorten it, so a job's work is the same however it is scheduled.
void burn_cpu(Duration amount) noexcept;

}  // namespace rtpar::kernels
