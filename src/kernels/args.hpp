// args.hpp — typed access to a kernel's `args` table with file:line:column errors.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

namespace rtpar::kernels {

// Args reads one kernel's `args` table (possibly absent) and reports errors against its location.
class Args {
 public:
  // Args wraps table (nullptr when the task has no `args`); prefix is e.g. "task[0].args".
  Args(const toml::table* table, std::string file, std::string prefix, toml::source_region where);

  // allow_only rejects every key not in `keys` (unknown keys are errors, as everywhere in rtpar).
  void allow_only(std::initializer_list<std::string_view> keys) const;

  // has tells whether key is present.
  [[nodiscard]] bool has(std::string_view key) const;

  // integer reads a required integer in [lo, hi].
  [[nodiscard]] std::int64_t integer(std::string_view key, std::int64_t lo, std::int64_t hi) const;

  // integer_or reads an optional integer in [lo, hi], `fallback` when absent.
  [[nodiscard]] std::int64_t integer_or(std::string_view key, std::int64_t lo, std::int64_t hi,
                                        std::int64_t fallback) const;
  // real_or reads an optional number (float or integer) in [lo, hi], `fallback` when absent.
  [[nodiscard]] double real_or(std::string_view key, double lo, double hi, double fallback) const;
  // array_of_tables reads a required non-empty array whose elements are all tables.
  [[nodiscard]] const toml::array& array_of_tables(std::string_view key) const;

  // error throws InputError at node (or at the args table when node is null) for field `field`.
  [[noreturn]] void error(const toml::node* node, const std::string& field,
                          const std::string& message) const;

  // field names a key below this table: "task[0].args.n".
  [[nodiscard]] std::string field(std::string_view key) const;

  // location turns a toml source region into an rtpar SourceLocation in this file.
  [[nodiscard]] SourceLocation location(const toml::source_region& region) const;

 private:
  const toml::table* table_;
  std::string file_;
  std::string prefix_;
  toml::source_region where_;
};

// duration_value reads a duration node: a string with a unit, or an integer of microseconds.
// Throws InputError naming field at the node's location. Zero is rejected when positive is true.
Duration duration_value(const toml::node& node, const std::string& file, const std::string& field,
                        bool positive);

}  // namespace rtpar::kernels
