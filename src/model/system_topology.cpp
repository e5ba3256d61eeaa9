// system_topology.cpp — the machine a task set describes ([system] cores and sockets) as a
// Topology (rtpar/tools/topology.hpp).
#include <algorithm>

#include "rtpar/taskset.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar {

Topology system_topology(const SystemSpec& system) {
  Topology t;
  const std::size_t n = system.cores.size();
  const std::size_t s = std::clamp<std::size_t>(static_cast<std::size_t>(system.sockets), 1,
                                                std::max<std::size_t>(n, 1));
  std::size_t next = 0;
  for (std::size_t k = 0; k < s && next < n; ++k) {
    const std::size_t count = n / s + (k < n % s ? 1 : 0);
    t.sockets.emplace_back(system.cores.begin() + static_cast<std::ptrdiff_t>(next),
                           system.cores.begin() + static_cast<std::ptrdiff_t>(next + count));
    next += count;
  }
  return t;
}

}  // namespace rtpar
