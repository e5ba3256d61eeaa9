// steal_time.hpp — the hypervisor's steal time of some CPUs (/proc/stat), so that a run can say
// when a broken bound coincides with the host taking the CPUs away (docs/cli.md, "Verdict").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace rtpar::detail {

// steal_time_ns sums the steal time (the 8th value of each `cpuN` line of /proc/stat, in
// USER_HZ ticks) of `cpus`, in nanoseconds; std::nullopt when /proc/stat cannot be read or a CPU
// has no line. Its resolution is one tick (10 ms at USER_HZ = 100): a difference of two reads
// bounds the CPU time a virtual machine lost to its host in between, to a tick.
std::optional<std::int64_t> steal_time_ns(const std::vector<int>& cpus);

}  // namespace rtpar::detail
