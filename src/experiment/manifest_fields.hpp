// manifest_fields.hpp — the field readers a manifest's tables share (manifest.cpp, bench_spec.cpp):
// CSV-safe names, sweeps, scalar values and (arrays of) sub-tables, each error naming file, line,
// column and field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "load/toml_fields.hpp"

namespace rtpar::experiment {

// csv_safe says whether a name can be written into a CSV cell unquoted: names are identifiers,
// not prose, so a comma or quote is a mistake rather than something to escape.
bool csv_safe(std::string_view s);

// scalar_text is a scalar value as text (a string as written, numbers and booleans spelt out).
std::string scalar_text(const toml::node& value, const model::TableReader& table,
                        std::string_view key);

// name_value reads a required CSV-safe name.
std::string name_value(const model::TableReader& table, std::string_view key);

// values_of reads a sweep: a "START:STOP:STEP" string or an array of scalars.
std::vector<std::string> values_of(const model::TableReader& table, std::string_view key);

// table_at returns the sub-table key of root (nullptr when absent); not a table is an error.
const toml::table* table_at(const toml::table& root, std::string_view key, const std::string& file);

// tables_at returns the array of tables key of root (empty when absent).
std::vector<const toml::table*> tables_at(const toml::table& root, std::string_view key,
                                          const std::string& file);

}  // namespace rtpar::experiment
