// manifest_fields.cpp — see manifest_fields.hpp.
#include "experiment/manifest_fields.hpp"

#include <fmt/core.h>

#include <set>

#include "experiment/manifest.hpp"

namespace rtpar::experiment {

using model::TableReader;

// csv_safe says whether a name can be written into a CSV cell unquoted: names are identifiers,
// not prose, so a comma or quote is a mistake rather than something to escape.
bool csv_safe(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.' || c == '+' || c == ' ' || c == '%';
    if (!ok) return false;
  }
  return true;
}

// scalar_text is a generator parameter's value as text: the generator parses it (durations with
// units, numbers, names), so a manifest and `rtpar generate --param` say the same thing alike.
std::string scalar_text(const toml::node& value, const TableReader& table, std::string_view key) {
  if (const auto* s = value.as_string()) return s->get();
  if (const auto* i = value.as_integer()) return std::to_string(i->get());
  if (const auto* f = value.as_floating_point()) return fmt::format("{}", f->get());
  if (const auto* b = value.as_boolean()) return b->get() ? "true" : "false";
  table.fail(&value, key, "expected a string, number or boolean");
}

// name_value reads a required CSV-safe name.
std::string name_value(const TableReader& table, std::string_view key) {
  const std::optional<std::string> v = table.string(key);
  if (!v) table.fail(nullptr, key, "missing (required)");
  if (!csv_safe(*v)) {
    table.fail(table.node(key), key,
               "must be non-empty and use only letters, digits, space and - _ . + %");
  }
  return *v;
}

// values_of reads a sweep: a "START:STOP:STEP" string or an array of scalars.
std::vector<std::string> values_of(const TableReader& table, std::string_view key) {
  const toml::node* node = table.node(key);
  if (node == nullptr) table.fail(nullptr, key, "missing (required)");
  std::vector<std::string> out;
  if (const auto* s = node->as_string()) {
    const std::int64_t cores = machine_cores();
    std::optional<std::vector<std::string>> r = x_range(s->get(), cores);
    if (!r) {
      table.fail(node, key,
                 "expected \"START:STOP:STEP\" (integers, STOP inclusive; STOP may be `cores`, " +
                     std::to_string(cores) + " here)");
    }
    out = std::move(*r);
  } else if (const auto* a = node->as_array()) {
    for (const toml::node& e : *a) out.push_back(scalar_text(e, table, key));
  } else {
    table.fail(node, key, "expected \"START:STOP:STEP\" or an array of values");
  }
  if (out.empty()) table.fail(node, key, "the sweep has no value");
  std::set<std::string> seen;
  for (const std::string& v : out) {
    if (!csv_safe(v)) table.fail(node, key, "value \"" + v + "\" is not a plain name or number");
    if (!seen.insert(v).second) table.fail(node, key, "value \"" + v + "\" appears twice");
  }
  return out;
}

// table_at returns the sub-table key of root (nullptr when absent); not a table is an error.
const toml::table* table_at(const toml::table& root, std::string_view key,
                            const std::string& file) {
  const toml::node* n = root.get(key);
  if (n == nullptr) return nullptr;
  if (!n->is_table()) {
    throw InputError(model::location(file, n->source()), std::string(key), "expected a table");
  }
  return n->as_table();
}

// tables_at returns the array of tables key of root (empty when absent).
std::vector<const toml::table*> tables_at(const toml::table& root, std::string_view key,
                                          const std::string& file) {
  std::vector<const toml::table*> out;
  const toml::node* n = root.get(key);
  if (n == nullptr) return out;
  const toml::array* a = n->as_array();
  if (a == nullptr) {
    throw InputError(model::location(file, n->source()), std::string(key),
                     "expected an array of tables ([[" + std::string(key) + "]])");
  }
  for (const toml::node& e : *a) {
    if (!e.is_table()) {
      throw InputError(model::location(file, e.source()), std::string(key),
                       "expected an array of tables ([[" + std::string(key) + "]])");
    }
    out.push_back(e.as_table());
  }
  return out;
}

}  // namespace rtpar::experiment
