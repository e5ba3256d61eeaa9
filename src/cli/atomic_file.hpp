// atomic_file.hpp — replacing a file so that readers see the old contents or the new, never a
// half-written file (`rtpar profile --out`).
#pragma once

#include <string>

namespace rtpar::cli {

// check_writable_file throws InputError (field `option`) when `path` cannot be replaced: it is a
// directory, or its directory does not exist or is not writable. Called before a long measurement
// so that a bad --out fails at once, not after it.
void check_writable_file(const std::string& path, const std::string& option);

// write_file_atomically replaces `path` with `text`: a temporary file in the same directory,
// fsync, rename. On any failure the temporary is removed, `path` is left as it was, and
// std::system_error is thrown.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace rtpar::cli
