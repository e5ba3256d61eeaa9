// registry.cpp — name → built-in kernel: described at load, created at run start.
#include "kernels/registry.hpp"

#include "kernels/builtin.hpp"

namespace rtpar::kernels {

namespace {
constexpr std::string_view kLibPrefix = "lib:";
constexpr std::string_view kOmpPrefix = "omp:";

// is_shared_object_kernel tells whether name is "lib:..." or "omp:..." with something after it.
bool is_shared_object_kernel(std::string_view name) {
  for (const std::string_view prefix : {kLibPrefix, kOmpPrefix}) {
    if (name.substr(0, prefix.size()) == prefix && name.size() > prefix.size()) return true;
  }
  return false;
}
}  // namespace

bool is_known_kernel(std::string_view name) {
  return name == "spin" || name == "segments" || name == "matmul" || name == "fib" ||
         name == "uts" || name == "heat" || is_shared_object_kernel(name);
}

KernelSpec builtin_spec(std::string name, SourceLocation where) {
  KernelSpec spec;
  spec.source = KernelSource::builtin;
  spec.name = std::move(name);
  spec.where = std::move(where);
  return spec;
}

std::int64_t spec_integer(const KernelSpec& spec, std::string_view key) {
  if (const auto v = spec.integer(key)) return *v;
  throw InputError(spec.where, "kernel",
                   "kernel '" + spec.name + "' needs integer argument '" + std::string(key) + "'");
}

double spec_real(const KernelSpec& spec, std::string_view key) {
  if (const auto v = spec.real(key)) return *v;
  throw InputError(spec.where, "kernel",
                   "kernel '" + spec.name + "' needs numeric argument '" + std::string(key) + "'");
}

KernelBuild describe_kernel(const KernelRequest& request) {
  const Args args(request.args, request.file, request.field_prefix + ".args", request.where);
  const SourceLocation where = args.location(request.where);
  if (request.name == "spin") return describe_spin(args, where);
  if (request.name == "segments") return describe_segments(args, request.file, where);
  if (request.name == "matmul") return describe_matmul(args, where);
  if (request.name == "fib") return describe_fib(args, where);
  if (request.name == "uts") return describe_uts(args, where);
  if (request.name == "heat") return describe_heat(args, where);
  if (request.name.substr(0, kLibPrefix.size()) == kLibPrefix ||
      request.name.substr(0, kOmpPrefix.size()) == kOmpPrefix) {
    return describe_library(request, args);
  }
  throw InputError(where, request.field_prefix + ".kernel",
                   "unknown kernel '" + std::string(request.name) +
                       "' (built-in: spin, segments, matmul, fib, uts, heat; or "
                       "\"lib:PATH:SYMBOL\" or \"omp:PATH:SYMBOL\")");
}

}  // namespace rtpar::kernels
