// machine_profile.cpp — machine_profile_path, machine_identity, choose_overhead
// (machine_profile.hpp).
#include "cli/machine_profile.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "rtpar/tools/topology.hpp"

namespace rtpar::cli {

namespace {

// env is the value of environment variable `name`, "" when unset.
std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string(v) : std::string();
}

}  // namespace

std::string machine_profile_path() {
  if (const std::string dir = env("RTPAR_STATE_DIR"); !dir.empty()) return dir + "/overhead.json";
  if (const std::string dir = env("XDG_STATE_HOME"); !dir.empty()) {
    return dir + "/rtpar/overhead.json";
  }
  if (geteuid() == 0) return "/var/lib/rtpar/overhead.json";
  return env("HOME") + "/.local/state/rtpar/overhead.json";
}

std::string machine_identity() {
  char host[256] = "unknown";
  gethostname(host, sizeof(host) - 1);
  return fmt::format("{} ({} CPUs online", host, online_cpus().size());
}

OverheadChoice choose_overhead(const std::string& flag, bool for_target) {
  OverheadChoice out;
  if (flag == "none") {
    out.note =
        "overheads: not charged (--overhead none): the bounds exclude release latency and "
        "fork/join costs";
    return out;
  }
  if (!flag.empty()) {
    out.profile = load_overhead_profile(flag);
    out.note = fmt::format("overheads: charged from {}", flag);
    return out;
  }
  const std::string path = machine_profile_path();
  std::error_code ec;
  if (for_target) {
    out.note =
        "overheads: not charged (--target names another machine; give --overhead FILE "
        "measured there)";
    return out;
  }
  if (!std::filesystem::exists(path, ec)) {
    out.note = fmt::format(
        "overheads: not charged: the bounds exclude this machine's release latency and fork/join "
        "costs; measure them once with `rtpar calibrate --fifo` (as root; written to {}, then "
        "charged automatically)",
        path);
    return out;
  }
  OverheadProfile profile = load_overhead_profile(path);
  const std::string here = machine_identity();
  if (profile.machine.rfind(here, 0) != 0) {
    out.note = fmt::format(
        "overheads: not charged: the machine profile {} was measured on '{}', not on this "
        "machine ('{}…'); run `rtpar calibrate --fifo` again",
        path, profile.machine, here);
    return out;
  }
  out.profile = std::move(profile);
  out.note =
      fmt::format("overheads: charged from this machine's profile {} (rtpar calibrate)", path);
  return out;
}

}  // namespace rtpar::cli
