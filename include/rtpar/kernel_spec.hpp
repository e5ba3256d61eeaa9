// rtpar/kernel_spec.hpp — which code a task runs, as a description: a built-in kernel and its
// arguments, or a function of a shared object. The loader builds it; only `rtpar run` (and
// rtpar::System::run) turns it into code, so checking or simulating a file runs none of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rtpar/error.hpp"

namespace rtpar {

// KernelSource says where a task's code comes from.
enum class KernelSource {
  none,     // no code: an analysis-only task (an explicit DAG without a kernel), or bound in code
  builtin,  // a built-in kernel: spin, segments, matmul, fib, uts, heat
  library,  // `lib:PATH:SYMBOL`: a C-ABI function of a shared object (rtpar/rtpar_kernel.h)
  openmp,   // `omp:PATH:SYMBOL`: the same, built with gcc -fopenmp: its regions run on rtpar's
            // OpenMP runtime, on the task's planned cores (docs/openmp.md, "OpenMP tasks")
};

// KernelArg is one validated argument of a built-in kernel, defaults filled in.
struct KernelArg {
  std::string name;
  std::variant<std::int64_t, double> value;
};

// KernelSpec describes a task's code without creating it. A `segments` kernel's structure is the
// task's own TaskSpec::segments, not an argument.
struct KernelSpec {
  KernelSource source = KernelSource::none;
  std::string name;             // built-in kernel name ("spin", "matmul", ...)
  std::vector<KernelArg> args;  // built-in: its arguments, in the kernel's order
  std::string library;          // library/openmp: the shared object, the path made absolute
  std::string symbol;           // library/openmp: the exported function called once per job
  SourceLocation where;         // the `kernel` value in the file (errors at run start name it)

  // integer is argument `key` as an integer, nullopt when absent or not an integer.
  [[nodiscard]] std::optional<std::int64_t> integer(std::string_view key) const;
  // real is argument `key` as a number (an integer converts), nullopt when absent.
  [[nodiscard]] std::optional<double> real(std::string_view key) const;
};

}  // namespace rtpar
