// physical_memory.hpp — how much memory this machine has, for the task-set memory limit.
#pragma once

#include <cstdint>

namespace rtpar::platform {

// physical_memory_bytes is the machine's physical memory (sysconf _SC_PHYS_PAGES × page size),
// or 0 when the system does not say.
std::uint64_t physical_memory_bytes() noexcept;

}  // namespace rtpar::platform
