// machine_env.cpp — see machine_env.hpp.
#include "experiment/machine_env.hpp"

#include <fmt/core.h>
#include <sys/utsname.h>

#include <fstream>
#include <sstream>

#include "rtpar/tools/topology.hpp"

namespace rtpar::experiment {

namespace {

// first_line is a file's first line without surrounding blanks, or "unknown".
std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "unknown";
  const std::size_t b = line.find_first_not_of(" \t");
  const std::size_t e = line.find_last_not_of(" \t\r");
  return b == std::string::npos ? "unknown" : line.substr(b, e - b + 1);
}

// cpu_model is /proc/cpuinfo's first "model name" value (x86; other architectures: "unknown").
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

}  // namespace

std::string machine_env() {
  utsname u{};
  const std::string kernel =
      uname(&u) == 0 ? fmt::format("{} {} {} {}", u.sysname, u.release, u.version, u.machine)
                     : "unknown";
  // /sys/kernel/realtime exists (and reads 1) only on PREEMPT_RT kernels.
  const std::string rt = first_line("/sys/kernel/realtime") == "1" ? "yes" : "no";
  const std::string throttling =
      fmt::format("{}/{} us", first_line("/proc/sys/kernel/sched_rt_runtime_us"),
                  first_line("/proc/sys/kernel/sched_rt_period_us"));
  const std::string governor = first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  return fmt::format(
      "kernel = {}\npreempt_rt = {}\ncpu = {}\ncpus_online = {}\nrt_throttling = {}\n"
      "governor = {}\n",
      kernel, rt, cpu_model(), online_cpus().size(), throttling, governor);
}

std::filesystem::path env_file(const std::filesystem::path& raw) {
  std::filesystem::path p = raw;
  p.replace_extension(".env");
  return p;
}

}  // namespace rtpar::experiment
