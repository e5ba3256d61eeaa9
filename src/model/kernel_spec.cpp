// kernel_spec.cpp — see rtpar/kernel_spec.hpp.
#include "rtpar/kernel_spec.hpp"

namespace rtpar {

std::optional<std::int64_t> KernelSpec::integer(std::string_view key) const {
  for (const KernelArg& a : args) {
    if (a.name != key) continue;
    if (const auto* v = std::get_if<std::int64_t>(&a.value)) return *v;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<double> KernelSpec::real(std::string_view key) const {
  for (const KernelArg& a : args) {
    if (a.name != key) continue;
    if (const auto* v = std::get_if<double>(&a.value)) return *v;
    return static_cast<double>(std::get<std::int64_t>(a.value));
  }
  return std::nullopt;
}

}  // namespace rtpar
