// steal_time.cpp — steal_time_ns (steal_time.hpp).
#include "platform/steal_time.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace rtpar::detail {

std::optional<std::int64_t> steal_time_ns(const std::vector<int>& cpus) {
  std::ifstream in("/proc/stat");
  if (!in) return std::nullopt;
  const long hz = sysconf(_SC_CLK_TCK);
  if (hz <= 0) return std::nullopt;
  std::int64_t ticks = 0;
  std::size_t found = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0 || line.size() < 4 || line[3] < '0' || line[3] > '9') continue;
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    const int cpu = std::stoi(name.substr(3));
    if (std::find(cpus.begin(), cpus.end(), cpu) == cpus.end()) continue;
    // user nice system idle iowait irq softirq steal
    std::int64_t value = 0;
    for (int k = 0; k < 8 && (fields >> value); ++k) {
      if (k == 7) {
        ticks += value;
        ++found;
      }
    }
  }
  if (found != cpus.size()) return std::nullopt;
  return ticks * (1'000'000'000 / hz);
}

}  // namespace rtpar::detail
