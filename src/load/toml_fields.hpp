// toml_fields.hpp — strict, typed reading of one table of a task-set file.
//
// The parser uses TableReader for [system] and each [[task]]: it rejects unknown keys, checks the
// TOML type of every value, and records where each value was written so that the rule checks run
// afterwards (check_taskset) report the value's line and column.
#pragma once

#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include <toml++/toml.h>

#include "kernels/args.hpp"
#include "model/taskset_check.hpp"
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

namespace rtpar::model {

// location converts a toml++ source region to a SourceLocation in file (line and column 1-based).
inline SourceLocation location(const std::string& file, const toml::source_region& region) {
  return SourceLocation{file, static_cast<int>(region.begin.line),
                        static_cast<int>(region.begin.column)};
}

// TableReader reads the keys of one TOML table; errors name the field "<prefix>.<key>".
class TableReader {
 public:
  // TableReader reads table from file; prefix is "system" or "task[2]".
  TableReader(const toml::table& table, std::string file, std::string prefix,
              FieldLocations& locations)
      : table_(table), file_(std::move(file)), prefix_(std::move(prefix)), locations_(locations) {}

  // set_label sets the suffix that names the task in messages (see task_label).
  void set_label(std::string label) { label_ = std::move(label); }

  // file is the task-set file name used in locations.
  [[nodiscard]] const std::string& file() const { return file_; }
  // prefix is the field path of the table itself.
  [[nodiscard]] const std::string& prefix() const { return prefix_; }
  // field is the dotted path of key in this table.
  [[nodiscard]] std::string field(std::string_view key) const {
    return prefix_ + "." + std::string(key);
  }
  // where is the location of the table (its [header], or its first key for inline tables).
  [[nodiscard]] SourceLocation where() const { return location(file_, table_.source()); }

  // fail throws for key at node, or at the table when node is null (a missing key).
  [[noreturn]] void fail(const toml::node* node, std::string_view key,
                         const std::string& message) const {
    throw InputError(node != nullptr ? location(file_, node->source()) : where(), field(key),
                     message + label_);
  }

  // allow_only rejects every key not in keys, pointing at the key itself: unknown keys are
  // errors so that a misspelt `deadlne` cannot silently fall back to a default.
  void allow_only(std::initializer_list<std::string_view> keys) const {
    allow_only(std::span<const std::string_view>(keys.begin(), keys.size()));
  }
  // allow_only is the same for a list built at run time (a simulation series' keys).
  void allow_only(std::span<const std::string_view> keys) const {
    for (const auto& [key, value] : table_) {
      bool known = false;
      for (const std::string_view k : keys) known = known || key.str() == k;
      if (known) continue;
      std::string list;
      for (const std::string_view k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
      throw InputError(location(file_, key.source()), field(key.str()),
                       "unknown key \"" + std::string(key.str()) + "\" (expected one of: " + list +
                           ")" + label_);
    }
  }

  // node returns the value of key, or nullptr when absent, and records where it was written.
  [[nodiscard]] const toml::node* node(std::string_view key) const {
    const toml::node* value = table_.get(key);
    if (value != nullptr) locations_.add(field(key), location(file_, value->source()));
    return value;
  }

  // string reads an optional string.
  [[nodiscard]] std::optional<std::string> string(std::string_view key) const {
    const toml::node* value = node(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_string()) fail(value, key, "expected a string");
    return value->as_string()->get();
  }

  // integer reads an optional integer.
  [[nodiscard]] std::optional<std::int64_t> integer(std::string_view key) const {
    const toml::node* value = node(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_integer()) fail(value, key, "expected an integer");
    return value->as_integer()->get();
  }

  // byte_size reads value (of key) as a byte count between 1 and max: an integer number of bytes,
  // or a string with a unit ("64KiB", "1MiB", "1MB", "512B", "4GiB"; a space may precede the
  // unit). Used for channel sizes and the memory limit.
  [[nodiscard]] std::uint64_t byte_size(const toml::node& value, std::string_view key,
                                        std::uint64_t max) const {
    const std::string at_most = "must be at most " + std::to_string(max) + " bytes" +
                                (max == (std::uint64_t{1} << 30) ? " (1 GiB)" : "");
    if (const auto* i = value.as_integer()) {
      if (i->get() <= 0) fail(&value, key, "must be > 0 bytes");
      if (static_cast<std::uint64_t>(i->get()) > max) fail(&value, key, at_most);
      return static_cast<std::uint64_t>(i->get());
    }
    const auto* s = value.as_string();
    if (s == nullptr)
      fail(&value, key, "expected a byte count: an integer or a string like \"64KiB\"");
    const std::string_view text = s->get();
    std::uint64_t number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || end == text.data()) {
      fail(&value, key, "expected a byte count like \"64KiB\", got \"" + std::string(text) + "\"");
    }
    std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
    while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);  // "64 KiB" reads too
    static constexpr std::pair<std::string_view, std::uint64_t> kUnits[] = {
        {"B", 1},
        {"KiB", 1024},
        {"MiB", 1024 * 1024},
        {"GiB", 1ULL << 30},
        {"TiB", 1ULL << 40},
        {"kB", 1000},
        {"MB", 1000 * 1000},
        {"GB", 1000 * 1000 * 1000}};
    // "KB" reads as 1000 to some and 1024 to others: a size must not depend on the reader.
    if (unit == "KB") {
      fail(&value, key, "\"KB\" is ambiguous: write \"KiB\" (1024 bytes) or \"kB\" (1000 bytes)");
    }
    for (const auto& [name, bytes] : kUnits) {
      if (unit != name) continue;
      if (number == 0) fail(&value, key, "must be > 0 bytes");
      if (number > max / bytes) fail(&value, key, at_most);
      return number * bytes;
    }
    fail(&value, key,
         "unknown unit \"" + std::string(unit) + "\" (use B, KiB, MiB, GiB, TiB, kB, MB or GB)");
  }

  // duration reads an optional duration: a string with a unit ("10ms"), or a bare 0 (any other
  // bare integer is refused: it has no unit). Zero and sign rules are left to check_taskset.
  [[nodiscard]] std::optional<Duration> duration(std::string_view key) const {
    const toml::node* value = node(key);
    if (value == nullptr) return std::nullopt;
    try {
      // The kernels' args use the same reader, so durations are spelt alike everywhere in a file.
      return kernels::duration_value(*value, file_, field(key), /*positive=*/false);
    } catch (const InputError& e) {
      throw InputError(e.where(), e.field(), e.message() + label_);
    }
  }

 private:
  const toml::table& table_;
  std::string file_;
  std::string prefix_;
  std::string label_;
  FieldLocations& locations_;
};

}  // namespace rtpar::model
