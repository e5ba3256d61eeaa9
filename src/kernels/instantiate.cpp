// instantiate.cpp — see instantiate.hpp.
#include "kernels/instantiate.hpp"

#include "kernels/builtin.hpp"

namespace rtpar::kernels {

std::shared_ptr<Kernel> make_kernel(const TaskSpec& task) {
  const KernelSpec& spec = task.kernel_spec;
  switch (spec.source) {
    case KernelSource::none:
      return nullptr;
    case KernelSource::library:
      return make_library(spec);
    case KernelSource::openmp:
      return make_omp_library(spec);
    case KernelSource::builtin:
      break;
  }
  if (spec.name == "spin") return make_spin(spec);
  if (spec.name == "segments") return make_segments_kernel(task.segments, spec);
  if (spec.name == "matmul") return make_matmul(spec);
  if (spec.name == "fib") return make_fib(spec);
  if (spec.name == "uts") return make_uts(spec);
  if (spec.name == "heat") return make_heat(spec);
  throw InputError(spec.where, "kernel", "unknown built-in kernel '" + spec.name + "'");
}

void instantiate_kernels(TaskSet& set) {
  bool openmp = false;
  for (TaskSpec& task : set.tasks) {
    if (!task.code) task.code = make_kernel(task);
    openmp = openmp || task.kernel_spec.source == KernelSource::openmp;
  }
  // Regions opened by other threads of the process (not a task's master) get their workers on
  // the non-real-time cores, never on a real-time task's.
  if (openmp && !set.system.nonrt_cores.empty()) restrict_unbound_openmp(set.system.nonrt_cores);
}

}  // namespace rtpar::kernels
