// rtpar/taskset_file.hpp — reading a task set from a TOML file or text (format: docs/taskset.md).
//
// Implemented by src/load/. rtpar/taskset.hpp includes this header, so `#include
// <rtpar/taskset.hpp>` alone still declares both readers.
#pragma once

#include <string>
#include <string_view>

#include "rtpar/taskset.hpp"

namespace rtpar {

// load_taskset reads and validates a TOML task-set file (format: docs/taskset.md). Throws
// InputError naming file, line, column and field for every invalid input.
TaskSet load_taskset(const std::string& path);

// parse_taskset is load_taskset on text already in memory; `source` names it in errors and is the
// directory base for relative `lib:` paths. Neither creates task code (TaskSpec::code stays null):
// a `lib:` kernel is resolved by reading its shared object's symbol table, never loaded.
TaskSet parse_taskset(std::string_view text, const std::string& source);

}  // namespace rtpar
