// registry.hpp — kernels by name: a task's `kernel` and `args` are checked and described when the
// file is loaded (describe_kernel, which runs no code), and turned into code when a run starts
// (kernels/instantiate.hpp; `lib:` objects are loaded only then).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "rtpar/ext/kernel.hpp"
#include "rtpar/kernel_spec.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::kernels {

// KernelBuild is a described kernel plus the work and span it knows about itself (if any).
struct KernelBuild {
  KernelSpec spec;
  std::optional<Duration> work;       // C implied by the arguments (segments), else nullopt
  std::optional<Duration> span;       // L implied by the arguments (segments, spin), else nullopt
  std::vector<SegmentSpec> segments;  // parallel-synchronous structure (segments), else empty
  // needs_steal: the kernel runs on the work-stealing runtime (fib, uts, heat); the parser then
  // requires runtime = "steal". steal_depth / steal_frames are the join nesting depth and the
  // scope frames per worker a job needs at most, known from the args by a serial look at the
  // computation (P3LS3 §4.2); the parser checks them against [task.steal] before anything runs.
  // The stack a steal kernel needs is checked as steal_depth × kStealStackPerLevel +
  // kStealStackBase.
  bool needs_steal = false;
  int steal_depth = 0;
  std::int64_t steal_frames = 0;
};

// kStealStackPerLevel is the call stack the built-in steal kernels use per join/scope level,
// with a 4× margin: gcc -O2 measures ≈ 210–240 bytes per level of fib's join and uts's Scope
// here. kStealStackBase is the rest of a worker's stack (pool loop, libc, signal frames).
inline constexpr std::size_t kStealStackPerLevel = 1024;
inline constexpr std::size_t kStealStackBase = 64 * 1024;

// KernelRequest is what the task-set parser hands the registry.
struct KernelRequest {
  std::string_view name;      // as written: "spin", "segments", "matmul", "fib", ..., "lib:P:S"
  const toml::table* args;    // the task's `args` table, or nullptr when absent
  std::string file;           // task-set file (for error locations and relative lib: paths)
  std::string field_prefix;   // e.g. "task[0]" — errors name "task[0].args.n"
  toml::source_region where;  // location of the `kernel` value
};

// describe_kernel checks a task's kernel and args and describes them. Throws InputError
// (file:line:column and field) for an unknown kernel, unknown or ill-typed args, or a `lib:`
// object that is missing, unreadable, not a shared object of this machine, or lacks the symbol
// (read from its ELF symbol table: nothing is loaded, no constructor runs).
KernelBuild describe_kernel(const KernelRequest& request);


// is_known_kernel tells whether name is a built-in kernel name or a well-formed lib: reference.
bool is_known_kernel(std::string_view name);

}  // namespace rtpar::kernels
