// rtpar_libgomp.cpp — see rtpar_libgomp.hpp.
#include "driver/rtpar_libgomp.hpp"

#include <unistd.h>

#include <system_error>

namespace fs = std::filesystem;

namespace rtpar::bench {

std::optional<fs::path> find_rtpar_libgomp(const std::string& given,
                                           std::vector<fs::path>& looked) {
  if (!given.empty()) {
    looked.emplace_back(given);
    return access(given.c_str(), R_OK) == 0 ? std::optional<fs::path>(given) : std::nullopt;
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec).parent_path();
  for (const fs::path& p :
       {self / ".." / "lib" / "rtpar" / "omp" / "libgomp.so.1",
        self / ".." / ".." / RTPAR_BENCH_INSTALL_LIBDIR / "rtpar" / "omp" / "libgomp.so.1"}) {
    looked.push_back(p.lexically_normal());
    if (access(p.c_str(), R_OK) == 0) return p.lexically_normal();
  }
  return std::nullopt;
}

}  // namespace rtpar::bench
