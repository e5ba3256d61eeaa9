// omp_library_dir.hpp — where rtpar's OpenMP runtime (libgomp.so.1 in lib/rtpar/omp/) lives: one
// search, used by `rtpar omp` (which puts the directory on LD_LIBRARY_PATH) and by the executor
// (which loads it for `kernel = "omp:..."` tasks).
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

namespace rtpar::platform {

// omp_library_dirs lists, in search order, where libgomp.so.1 of rtpar may be: $RTPAR_OMP_DIR,
// then rtpar/omp/ beside librtpar itself (build tree: build/lib/rtpar/omp next to
// build/librtpar.so is build/lib/rtpar/omp; installed: <libdir>/rtpar/omp), then beside the
// running binary (build/rtpar finds build/lib/rtpar/omp; bin/rtpar finds ../lib*/rtpar/omp).
std::vector<std::filesystem::path> omp_library_dirs();

// find_omp_library_dir is the first of omp_library_dirs() holding a readable libgomp.so.1.
std::optional<std::filesystem::path> find_omp_library_dir();

}  // namespace rtpar::platform
