// tool_path.hpp — finding a script of tools/ beside the `rtpar` binary, in the build tree
// (build/rtpar -> tools/) or installed (bin/rtpar -> share/rtpar/tools/): `rtpar experiment plot`
// and `rtpar plot`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace rtpar::cli {

// tool_path finds tools/NAME beside the binary (repository build tree or installation).
std::optional<std::filesystem::path> tool_path(const std::string& name);

// python_program is the Python to run a tool with: Debian's /usr/bin/python3, which has
// python3-matplotlib (scripts/setup.sh), when it exists, since a python3 earlier in PATH may not.
const char* python_program();

}  // namespace rtpar::cli
