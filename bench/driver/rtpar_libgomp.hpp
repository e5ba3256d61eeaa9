// rtpar_libgomp.hpp — where rtpar's OpenMP runtime (libgomp.so.1) is, for the bench drivers that
// run OpenMP programs against it (bench omp, bench wcet).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rtpar::bench {

// find_rtpar_libgomp returns rtpar's libgomp.so.1: `given` (a --rtpar-lib) when set, else the
// first readable one beside rtpar-bench's own tree (build tree: bench/../lib/rtpar/omp;
// installed: libexec/rtpar/../../LIBDIR/rtpar/omp), lexically normal. Each path tried is
// appended to `looked`, for the message that says where nothing was found.
std::optional<std::filesystem::path> find_rtpar_libgomp(const std::string& given,
                                                        std::vector<std::filesystem::path>& looked);

}  // namespace rtpar::bench
