// omp_library_dir.cpp — see omp_library_dir.hpp.
#include "platform/omp_library_dir.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <system_error>

namespace rtpar::platform {

std::vector<std::filesystem::path> omp_library_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("RTPAR_OMP_DIR"); env != nullptr && *env != '\0') {
    dirs.emplace_back(env);
  }
  // librtpar's own file: a program linked against the library (rtpar::System) finds the runtime
  // installed beside it, wherever the program itself lives.
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&omp_library_dirs), &info) != 0 && info.dli_fname != nullptr) {
    std::error_code ec;
    const std::filesystem::path lib = std::filesystem::canonical(info.dli_fname, ec);
    if (!ec) {
      const std::filesystem::path dir = lib.parent_path();
      dirs.push_back(dir / "lib" / "rtpar" / "omp");  // build tree
      dirs.push_back(dir / "rtpar" / "omp");          // installed: <libdir>/librtpar.so
    }
  }
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::filesystem::path bin = self.parent_path();
    dirs.push_back(bin / "lib" / "rtpar" / "omp");
    for (const char* libdir : {"lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"}) {
      dirs.push_back((bin / ".." / libdir / "rtpar" / "omp").lexically_normal());
    }
  }
  return dirs;
}

std::optional<std::filesystem::path> find_omp_library_dir() {
  for (const std::filesystem::path& d : omp_library_dirs()) {
    if (access((d / "libgomp.so.1").c_str(), R_OK) == 0) return d;
  }
  return std::nullopt;
}

}  // namespace rtpar::platform
