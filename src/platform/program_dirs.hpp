// program_dirs.hpp — where rtpar finds its helper programs (rtpar-bench and the bench programs):
// one search, used by the `rtpar bench` forwarder and by rtpar-bench itself.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace rtpar::platform {

// program_dirs lists where bench programs may live, in search order: $RTPAR_BENCH_DIR if set,
// then the directory of the running binary (rtpar-bench lives next to its programs, in the build
// tree's bench/ and in libexec/rtpar/), then <that dir>/bench (build tree: build/rtpar finds
// build/bench/rtpar-bench), then <that dir>/../libexec/rtpar (installed: bin/rtpar finds
// libexec/rtpar/rtpar-bench).
inline std::vector<std::filesystem::path> program_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("RTPAR_BENCH_DIR"); env != nullptr && *env != '\0') {
    dirs.emplace_back(env);
  }
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back(self.parent_path());
    dirs.push_back(self.parent_path() / "bench");
    dirs.push_back((self.parent_path() / ".." / "libexec" / "rtpar").lexically_normal());
  }
  return dirs;
}

// find_program is the first executable `name` in program_dirs(), if any.
inline std::optional<std::filesystem::path> find_program(const std::string& name) {
  for (const std::filesystem::path& d : program_dirs()) {
    const std::filesystem::path p = d / name;
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return std::nullopt;
}

}  // namespace rtpar::platform
