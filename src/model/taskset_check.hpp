// taskset_check.hpp — the task-set rules, written once and shared by the TOML parser and by
// validate_taskset. The parser only converts types and fills in defaults; every semantic rule
// (positive periods, D ≤ T, unique names, ...) lives in check_taskset.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// kMaxCpus bounds CPU ids and core counts: Linux supports at most 8192 CPUs (NR_CPUS), and a
// bound keeps `cores = 1000000000` from allocating a huge core list.
inline constexpr int kMaxCpus = 8192;

// FieldLocations remembers where each value was written in a file, keyed by its field path
// ("task[2].period") or, for array elements, path plus index ("system.cores[1]"). The parser fills
// it so that a rule violation found later by check_taskset points at the offending value.
class FieldLocations {
 public:
  // add records (or replaces) the location of key.
  void add(const std::string& key, SourceLocation where) { map_[key] = std::move(where); }

  // find returns the location of key, or nullptr when it was not written in the file.
  [[nodiscard]] const SourceLocation* find(std::string_view key) const {
    const auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::string, SourceLocation, std::less<>> map_;
};

// is_valid_task_name tells whether name is non-empty and uses only [A-Za-z0-9_.-], so that it
// can appear unquoted in reports, CSV files and file names.
bool is_valid_task_name(std::string_view name);

// task_label is the suffix that names a task in messages, ' (task "cam")', or "" when the name is
// not valid (an invalid name is itself the error being reported).
std::string task_label(std::string_view name);

// check_taskset enforces every rule of validate_taskset. locations may be null (sets built in
// code); when given, errors point at the recorded value instead of the enclosing table.
void check_taskset(const TaskSet& set, const FieldLocations* locations);

// check_task_parameters enforces the per-task rules only (0 < L ≤ C, 0 < D ≤ T, phase ≥ 0,
// priority range, valid unique names). Planners call it: their formulas are sound only for such
// parameters, while an empty core set or task list is a legitimate (unschedulable or trivial)
// question for the analysis rather than bad input.
void check_task_parameters(const TaskSet& set);

}  // namespace rtpar::model
