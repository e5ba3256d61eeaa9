// registry.cpp — name → built-in kernel.
#include "kernels/registry.hpp"

#include "kernels/builtin.hpp"

namespace rtpar::kernels {

namespace {
constexpr std::string_view kLibPrefix = "lib:";
}

bool is_known_kernel(std::string_view name) {
  return name == "spin" || name == "segments" || name == "matmul" || name == "fib" ||
         name == "uts" || name == "heat" ||
         (name.substr(0, kLibPrefix.size()) == kLibPrefix && name.size() > kLibPrefix.size());
}

KernelBuild make_kernel(const KernelRequest& request) {
  const Args args(request.args, request.file, request.field_prefix + ".args", request.where);
  if (request.name == "spin") return make_spin(args);
  if (request.name == "segments") return make_segments(args, request.file);
  if (request.name == "matmul") return make_matmul(args);
  if (request.name == "fib") return make_fib(args);
  if (request.name == "uts") return make_uts(args);
  if (request.name == "heat") return make_heat(args);
  if (request.name.substr(0, kLibPrefix.size()) == kLibPrefix) {
    return make_library(request, args);
  }
  throw InputError(
      args.location(request.where), request.field_prefix + ".kernel",
      "unknown kernel '" + std::string(request.name) +
          "' (built-in: spin, segments, matmul, fib, uts, heat; or \"lib:PATH:SYMBOL\")");
}

}  // namespace rtpar::kernels
