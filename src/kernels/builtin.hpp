// builtin.hpp — the built-in kernels, each in two steps used by the registry: describe_X checks
// the args when the file is loaded and describes them (no code is created); make_X creates the
// kernel from that description when a run starts.
#pragma once

#include "kernels/args.hpp"
#include "kernels/registry.hpp"

namespace rtpar::kernels {

// builtin_spec starts the description of built-in kernel `name` found at where.
KernelSpec builtin_spec(std::string name, SourceLocation where);

// spec_integer is integer argument key of spec; throws InputError at spec.where when a spec built
// in code lacks it.
std::int64_t spec_integer(const KernelSpec& spec, std::string_view key);
// spec_real is numeric argument key of spec (see spec_integer).
double spec_real(const KernelSpec& spec, std::string_view key);

// describe_spin checks `spin`: each job consumes the task's work C of thread CPU time; the
// optional args overrun_every = N and overrun_factor = F make every N-th job burn F·C (fault
// injection).
KernelBuild describe_spin(const Args& args, SourceLocation where);
// make_spin creates `spin`.
std::shared_ptr<Kernel> make_spin(const KernelSpec& spec);

// describe_segments checks `segments`: a parallel-synchronous job, one parallel_for per segment;
// the segments become the task's structure.
KernelBuild describe_segments(const Args& args, const std::string& file, SourceLocation where);

// make_segments_kernel creates the `segments` kernel for a task's [[task.segment]] structure,
// with spec's fault-injection args (none for [[task.segment]] without a kernel).
std::shared_ptr<Kernel> make_segments_kernel(const std::vector<SegmentSpec>& segments,
                                             const KernelSpec& spec);

// fault_args reads the fault-injection args of `spin` and `segments` (docs/taskset.md, Kernels):
// overrun_every and overrun_factor (together) and hang_at_job, in that order, the ones given.
std::vector<KernelArg> fault_args(const Args& args);

// describe_matmul checks `matmul`: C = A·B on n×n doubles, rows split over the team (or, with
// runtime = "steal", by steal::parallel_for).
KernelBuild describe_matmul(const Args& args, SourceLocation where);
// make_matmul creates `matmul`.
std::shared_ptr<Kernel> make_matmul(const KernelSpec& spec);

// describe_fib checks `fib`: naive fib(n) by join at every call (spawn-bound), checked each job.
KernelBuild describe_fib(const Args& args, SourceLocation where);
// make_fib creates `fib`.
std::shared_ptr<Kernel> make_fib(const KernelSpec& spec);

// describe_uts checks `uts`: a binomial unbalanced tree search, one Scope spawn per child; the
// serial walk here gives the depth and open spawns [task.steal] must cover.
KernelBuild describe_uts(const Args& args, SourceLocation where);
// make_uts creates `uts` (walking the tree once more for the node count every job is checked
// against).
std::shared_ptr<Kernel> make_uts(const KernelSpec& spec);

// describe_heat checks `heat`: 2-D Jacobi sweeps, one parallel_for over the rows per sweep.
KernelBuild describe_heat(const Args& args, SourceLocation where);
// make_heat creates `heat`; every job's grid is checked against the serial result.
std::shared_ptr<Kernel> make_heat(const KernelSpec& spec);

// describe_library resolves `lib:PATH:SYMBOL` without loading it: the path (relative to the
// task-set file's directory) names a readable ELF shared object of this machine that exports
// SYMBOL as a function.
KernelBuild describe_library(const KernelRequest& request, const Args& args);
// make_library loads the shared object (dlopen: its constructors run) and finds the symbol.
std::shared_ptr<Kernel> make_library(const KernelSpec& spec);

// LoadedSymbol is a shared object loaded for a kernel and the kernel's function in it.
struct LoadedSymbol {
  void* handle = nullptr;
  void* function = nullptr;
};
// load_symbol dlopens spec.library by its absolute path (no search) and finds spec.symbol; throws
// InputError at the spec's location when either fails.
LoadedSymbol load_symbol(const KernelSpec& spec);

// make_omp_library loads an `omp:` kernel: rtpar's OpenMP runtime first (so that the object's
// libgomp.so.1 is rtpar's), then the object; refuses an object bound to another OpenMP runtime.
std::shared_ptr<Kernel> make_omp_library(const KernelSpec& spec);

// restrict_unbound_openmp makes the OpenMP regions of threads that are not a task's master run
// their workers on `cpus` (the system's nonrt_cores), when rtpar's OpenMP runtime is loaded.
void restrict_unbound_openmp(const std::vector<int>& cpus);

// burn_cpu spins until the calling thread has consumed `amount` of CPU time. Preemption does not
// shorten it, so a job's work is the same however it is scheduled.
void burn_cpu(Duration amount) noexcept;

}  // namespace rtpar::kernels
