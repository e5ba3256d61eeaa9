// instantiate.hpp — creating task code from the kernel descriptions the loader built. Only what
// runs a task set (`rtpar run`, System::run) calls this: checking and simulating create no code.
#pragma once

#include <memory>

#include "rtpar/ext/kernel.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::kernels {

// make_kernel creates the code task.kernel_spec describes (a `segments` kernel from
// task.segments); `lib:` objects are loaded here (dlopen: their constructors run). Throws
// InputError at the spec's location when the object cannot be loaded or lacks the symbol.
std::shared_ptr<Kernel> make_kernel(const TaskSpec& task);

// instantiate_kernels gives every task that has no code yet (not bound through System) the code
// its kernel_spec describes; tasks with KernelSource::none keep none (the executor refuses them).
void instantiate_kernels(TaskSet& set);

}  // namespace rtpar::kernels
