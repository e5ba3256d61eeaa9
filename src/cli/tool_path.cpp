// tool_path.cpp — tool_path, python_program.
#include "cli/tool_path.hpp"

#include <unistd.h>

#include <system_error>

namespace rtpar::cli {

std::optional<std::filesystem::path> tool_path(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  for (const fs::path& p : {self.parent_path() / ".." / "tools" / name,
                            self.parent_path() / ".." / "share" / "rtpar" / "tools" / name}) {
    if (fs::is_regular_file(p)) return p.lexically_normal();
  }
  return std::nullopt;
}

const char* python_program() {
  return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

}  // namespace rtpar::cli
