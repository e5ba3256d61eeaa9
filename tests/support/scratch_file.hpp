// scratch_file.hpp — a test's scratch file with a name no other test process shares.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace rtpar::test {

// ScratchFile writes `text` to a fresh file under the system temp directory and removes it when it
// goes. Why unique names: ctest runs each doctest case as its own process and runs cases in
// parallel, so a fixed name ("prof.json") let one case overwrite or delete another's file mid-read
// (seen in CI: a measured-profile case read another case's rejected input). The name holds the
// process id and a per-process counter, so no two live scratch files share it.
class ScratchFile {
 public:
  // ScratchFile creates the file holding `text`; `tag` names it for a reader of a leftover file.
  explicit ScratchFile(const std::string& text, const std::string& tag = "scratch") {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("rtpar_test_" + tag + "_" + std::to_string(::getpid()) + "_" +
              std::to_string(counter.fetch_add(1, std::memory_order_relaxed))))  // relaxed: only uniqueness
                .string();
    write(text);
  }
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  // write replaces the file's content with `text`.
  void write(const std::string& text) const { std::ofstream(path_, std::ios::binary) << text; }

  // path is the file's absolute path.
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace rtpar::test
