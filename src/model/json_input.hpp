// json_input.hpp — strict reading of the JSON inputs rtpar takes besides task sets: the overhead
// profile (`--overhead`, model/overhead_profile.cpp) and the run report (`--measured`,
// report/measured_profile.cpp). One copy of the rules both follow: a value of the wrong type, out
// of range, missing or unknown is an InputError naming the file and the JSON path of the field
// ("prof.json: fork_join[3].p999_ns: ..."), which the CLI maps to exit status 2; a syntax error
// names the file, line and column.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace rtpar::model {

// JsonAt is one JSON value together with the file it came from and its JSON path ("" for the
// document, then "fork_join", "fork_join[3]", "fork_join[3].p999_ns"), so that every check on it can
// name where it failed.
struct JsonAt {
  const nlohmann::json& value;
  const std::string& file;
  std::string path;

  // member is the required key of this object (an InputError if this is not an object or the key
  // is missing).
  [[nodiscard]] JsonAt member(std::string_view key) const;
  // has says whether this object has the key (an InputError if this is not an object).
  [[nodiscard]] bool has(std::string_view key) const;
  // element is item i of this array.
  [[nodiscard]] JsonAt element(std::size_t i) const;
  // array_size is the length of this array (an InputError if it is not an array, or it has fewer
  // than min_size items).
  [[nodiscard]] std::size_t array_size(std::size_t min_size) const;
  // only_keys rejects any key of this object outside `allowed` (a misspelt field is an error, not
  // a silently ignored value).
  void only_keys(std::initializer_list<std::string_view> allowed) const;

  // integer is this value as an integer in [lo, hi]: a float (even 3.0), string or out-of-range
  // value is an InputError quoting the range and `unit` (e.g. "ns").
  [[nodiscard]] std::int64_t integer(std::int64_t lo, std::int64_t hi,
                                     std::string_view unit = {}) const;
  // number is this value as a finite number (integer or float) in [lo, hi].
  [[nodiscard]] double number(double lo, double hi, std::string_view unit = {}) const;
  // boolean is this value as true or false.
  [[nodiscard]] bool boolean() const;
  // string is this value as a string, non-empty if `non_empty`.
  [[nodiscard]] std::string string(bool non_empty = false) const;

  // fail throws the InputError for this field with `message`.
  [[noreturn]] void fail(const std::string& message) const;
};

// read_json_file reads and parses `path`. `what` names the expected document in errors ("overhead
// profile"). A file that cannot be read, or is not valid JSON (with its line and column), throws
// InputError.
nlohmann::json read_json_file(const std::string& path, std::string_view what);

}  // namespace rtpar::model
