// json_input.cpp — see json_input.hpp.
#include "model/json_input.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "rtpar/error.hpp"

namespace rtpar::model {

namespace {

// line_column turns a byte offset of text into a 1-based line and column, for syntax errors.
SourceLocation line_column(const std::string& path, const std::string& text, std::size_t offset) {
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return SourceLocation{path, line, column};
}

// type_name says what a JSON value is, for "expected X, got Y" messages.
std::string type_name(const nlohmann::json& v) {
  if (v.is_number_float()) return fmt::format("the number {}", v.dump());
  if (v.is_number_integer()) return fmt::format("the integer {}", v.dump());
  if (v.is_string()) return fmt::format("the string {}", v.dump());
  if (v.is_null()) return "null";
  if (v.is_boolean()) return v.dump();
  return fmt::format("an {}", v.type_name());
}

// range_text is "an integer in [lo, hi] ns" or "a non-negative integer ≤ hi ns".
std::string range_text(const char* kind, std::int64_t lo, std::int64_t hi, std::string_view unit) {
  const std::string suffix = unit.empty() ? "" : fmt::format(" {}", unit);
  if (lo == 0) return fmt::format("a non-negative {} ≤ {}{}", kind, hi, suffix);
  return fmt::format("{} {} in [{}, {}]{}", kind[0] == 'i' ? "an" : "a", kind, lo, hi, suffix);
}

}  // namespace

void JsonAt::fail(const std::string& message) const {
  throw InputError(SourceLocation{file, 0, 0}, path, message);
}

JsonAt JsonAt::member(std::string_view key) const {
  if (!has(key)) fail(fmt::format("missing field '{}'", key));
  const std::string name(key);
  return JsonAt{value.at(name), file, path.empty() ? name : path + "." + name};
}

bool JsonAt::has(std::string_view key) const {
  if (!value.is_object()) fail(fmt::format("expected an object, got {}", type_name(value)));
  return value.contains(std::string(key));
}

JsonAt JsonAt::element(std::size_t i) const {
  return JsonAt{value.at(i), file, fmt::format("{}[{}]", path, i)};
}

std::size_t JsonAt::array_size(std::size_t min_size) const {
  if (!value.is_array()) fail(fmt::format("expected an array, got {}", type_name(value)));
  if (value.size() < min_size) {
    fail(fmt::format("has {} entries; at least {} needed", value.size(), min_size));
  }
  return value.size();
}

void JsonAt::only_keys(std::initializer_list<std::string_view> allowed) const {
  if (!value.is_object()) fail(fmt::format("expected an object, got {}", type_name(value)));
  for (const auto& item : value.items()) {
    bool known = false;
    for (const std::string_view a : allowed) known = known || item.key() == a;
    if (known) continue;
    std::string list;
    for (const std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    JsonAt{item.value(), file, path.empty() ? item.key() : path + "." + item.key()}.fail(
        fmt::format("unknown field (expected one of: {})", list));
  }
}

std::int64_t JsonAt::integer(std::int64_t lo, std::int64_t hi, std::string_view unit) const {
  const std::string want = range_text("integer", lo, hi, unit);
  if (!value.is_number_integer()) fail(fmt::format("must be {}, got {}", want, type_name(value)));
  // nlohmann keeps integers above INT64_MAX as unsigned: compare in the type they were read in.
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    const bool above = hi < 0 || u > static_cast<std::uint64_t>(hi);
    const bool below = lo > 0 && u < static_cast<std::uint64_t>(lo);
    if (above || below) fail(fmt::format("must be {}, got {}", want, u));
    return static_cast<std::int64_t>(u);
  }
  const auto v = value.get<std::int64_t>();
  if (v < lo || v > hi) fail(fmt::format("must be {}, got {}", want, v));
  return v;
}

double JsonAt::number(double lo, double hi, std::string_view unit) const {
  const std::string suffix = unit.empty() ? "" : fmt::format(" {}", unit);
  if (!value.is_number()) {
    fail(fmt::format("must be a number in [{}, {}]{}, got {}", lo, hi, suffix, type_name(value)));
  }
  const auto v = value.get<double>();
  if (!std::isfinite(v) || v < lo || v > hi) {
    fail(fmt::format("must be a number in [{}, {}]{}, got {}", lo, hi, suffix, value.dump()));
  }
  return v;
}

bool JsonAt::boolean() const {
  if (!value.is_boolean()) fail(fmt::format("must be true or false, got {}", type_name(value)));
  return value.get<bool>();
}

std::string JsonAt::string(bool non_empty) const {
  if (!value.is_string()) fail(fmt::format("must be a string, got {}", type_name(value)));
  std::string s = value.get<std::string>();
  if (non_empty && s.empty()) fail("must not be empty");
  return s;
}

nlohmann::json read_json_file(const std::string& path, std::string_view what) {
  std::ifstream in(path);
  if (!in) throw InputError(SourceLocation{path, 0, 0}, "", fmt::format("cannot read the {}", what));
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(line_column(path, text, e.byte > 0 ? e.byte - 1 : 0), "",
                     fmt::format("the {} is not valid JSON: {}", what, e.what()));
  } catch (const nlohmann::json::exception& e) {
    // The parser's other errors carry no position: a number too large for a double ("1e999",
    // out_of_range.406) is the one a valid-looking file can hold. Still bad input, not internal.
    throw InputError(SourceLocation{path, 0, 0}, "",
                     fmt::format("the {} is not valid JSON: {}", what, e.what()));
  }
}

}  // namespace rtpar::model
