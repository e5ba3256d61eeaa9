// run_isolation.cpp — see run_isolation.hpp.
#include "cli/run_isolation.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "analysis/bounds/light_first_fit.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar::cli {

std::unique_ptr<platform::Isolation> isolate_for_run(const TaskSet& set, bool requested,
                                                     KernelInterference& interference) {
  const std::string dir = platform::state_dir();
  if (const std::string msg = platform::apply_leftover_record(dir); !msg.empty()) {
    fmt::print(stderr, "rtpar: {}\n", msg);
  }
  if (!requested && !set.system.isolate) return nullptr;
  platform::IsolationConfig config;
  config.state_dir = dir;
  config.rt_cpus = analysis::realtime_cores(set.system);
  // IRQs go to the online CPUs that are not real-time ones (none: they stay).
  for (const int cpu : online_cpus()) {
    if (!std::binary_search(config.rt_cpus.begin(), config.rt_cpus.end(), cpu)) {
      config.housekeeping_cpus.push_back(cpu);
    }
  }
  auto isolation = std::make_unique<platform::Isolation>(config);
  const platform::IsolationOutcome& done = isolation->outcome();
  interference.state = "isolated";
  interference.known = done.complete();
  interference.source = fmt::format(
      "isolated for this run: {}{}", done.summary(),
      done.complete() ? std::string() : "; NOT complete: the interference left is not charged");
  fmt::print(stderr, "rtpar: {}\n", interference.source);
  return isolation;
}

}  // namespace rtpar::cli
