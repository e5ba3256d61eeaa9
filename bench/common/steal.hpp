// steal.hpp — time the hypervisor took the measuring CPUs away (steal time, /proc/stat).
//
// On a VM a vCPU can be descheduled by the host at any moment; a region that spans such a gap
// takes milliseconds, whatever the runtime does. The orchestrator reads the steal counters of the
// measuring CPUs around every program run and reports them with the rows, so a tail caused by the
// host is told apart from one caused by a runtime. 0 on bare metal (or without steal accounting).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rtpar_bench {

// steal_ns sums the steal time of the given CPUs since boot, in ns (USER_HZ resolution: 10 ms).
inline std::int64_t steal_ns(const std::vector<int>& cpus) {
  std::ifstream stat("/proc/stat");
  const long hz = sysconf(_SC_CLK_TCK);
  std::int64_t ticks = 0;
  for (std::string line; std::getline(stat, line);) {
    if (line.rfind("cpu", 0) != 0 || line.size() < 4 || line[3] < '0' || line[3] > '9') continue;
    std::istringstream in(line.substr(3));
    int cpu = -1;
    std::int64_t v[8] = {};  // user nice system idle iowait irq softirq steal
    in >> cpu;
    for (std::int64_t& x : v) in >> x;
    for (int c : cpus) ticks += c == cpu ? v[7] : 0;
  }
  return hz > 0 ? ticks * (1'000'000'000 / hz) : 0;
}

}  // namespace rtpar_bench
