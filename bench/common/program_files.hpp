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

#include "platform/program_dirs.hpp"

namespace rtpar_bench {

// program_dirs and find_program are rtpar's one search for helper programs
// (platform/program_dirs.hpp), shared with the `rtpar bench` forwarder.
using rtpar::platform::find_program;
using rtpar::platform::program_dirs;

// kPeerMissingHint follows the "not found" message of a peer's program: a peer runtime (OpenMP,
// oneTBB, clang++) missing at configure time skips its programs with a cmake warning, so at run
// time the peer is reported unavailable and the other runtimes are measured.
inline constexpr const char* kPeerMissingHint =
    " (peer runtime not available: it was not found when rtpar was configured, or "
    "-DRTPAR_BENCH_PEERS=OFF; see the cmake warnings)";

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
