// physical_memory.cpp — see physical_memory.hpp.
#include "platform/physical_memory.hpp"

#include <unistd.h>

namespace rtpar::platform {

std::uint64_t physical_memory_bytes() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(pages), static_cast<std::uint64_t>(page),
                             &bytes)) {
    return UINT64_MAX;
  }
  return bytes;
}

}  // namespace rtpar::platform
