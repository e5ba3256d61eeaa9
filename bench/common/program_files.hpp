// program_files.hpp — where `rtpar bench` finds rtpar-bench and rtpar-bench its programs, and the
// scratch directory the programs write their raw samples into.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rtpar_bench {

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

// kPeerMissingHint follows the "not found" message of a peer's program: a peer runtime (OpenMP,
// oneTBB, clang++) missing at configure time skips its programs with a cmake warning, so at run
// time the peer is reported unavailable and the other runtimes are measured.
inline constexpr const char* kPeerMissingHint =
    " (peer runtime not available: it was not found when rtpar was configured, or "
    "-DRTPAR_BENCH_PEERS=OFF; see the cmake warnings)";

// find_program is the first executable `name` in program_dirs(), if any.
inline std::optional<std::filesystem::path> find_program(const std::string& name) {
  for (const std::filesystem::path& d : program_dirs()) {
    const std::filesystem::path p = d / name;
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return std::nullopt;
}

// ScratchDir is a private temporary directory, removed with its contents on scope exit.
class ScratchDir {
 public:
  // ScratchDir creates $TMPDIR/rtpar-bench-XXXXXX; throws std::runtime_error if it cannot.
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "rtpar-bench-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      throw std::runtime_error("cannot create a temporary directory: " +
                               std::string(std::strerror(errno)));
    }
    path_ = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // path is the directory.
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace rtpar_bench
