// params.cpp — typed, range-checked generator parameters (params.hpp).
#include "gen/params.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include <fmt/core.h>

namespace rtpar::gen {

namespace {
// field is the error path of a parameter.
std::string field(std::string_view key) { return "generator." + std::string(key); }
}  // namespace

const FamilyInfo& find_family(std::string_view name) {
  for (const FamilyInfo& f : families()) {
    if (f.name == name) return f;
  }
  std::string known;
  for (const FamilyInfo& f : families()) known += (known.empty() ? "" : ", ") + f.name;
  throw InputError({}, "generator.family",
                   fmt::format("unknown generator family \"{}\" (known: {})", name, known));
}

ParamReader::ParamReader(const FamilyInfo& family, const Params& params)
    : family_(family), params_(params) {
  for (const auto& [key, param] : params_) {
    bool known = false;
    for (const ParamInfo& info : family_.params) known = known || info.name == key;
    if (!known) {
      throw InputError(param.where, field(key),
                       fmt::format("unknown parameter of generator \"{}\" (rtpar generate --list "
                                   "shows its parameters)",
                                   family_.name));
    }
  }
}

const std::string& ParamReader::text(std::string_view key) const {
  if (auto it = params_.find(key); it != params_.end()) return it->second.value;
  for (const ParamInfo& info : family_.params) {
    if (info.name == key) return info.default_value;
  }
  // A family reading a key its table does not list is a bug in the family, not bad input.
  throw std::logic_error("generator " + family_.name + " reads undocumented parameter " +
                         std::string(key));
}

void ParamReader::fail(std::string_view key, const std::string& message) const {
  SourceLocation where;
  if (auto it = params_.find(key); it != params_.end()) where = it->second.where;
  throw InputError(where, field(key), message);
}

std::int64_t ParamReader::integer(std::string_view key, std::int64_t lo, std::int64_t hi) const {
  const std::string& s = text(key);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) {
    fail(key, fmt::format("\"{}\" is not an integer", s));
  }
  if (v < lo || v > hi) fail(key, fmt::format("{} is out of range [{}, {}]", v, lo, hi));
  return v;
}

double ParamReader::real(std::string_view key, double lo, double hi) const {
  return real_text(key, text(key), lo, hi);
}

double ParamReader::real_text(std::string_view key, const std::string& s, double lo,
                              double hi) const {
  // Decimal digits, one optional point, no sign/exponent/nan: the same text gives the same value
  // everywhere (from_chars is correctly rounded).
  bool ok = !s.empty();
  int points = 0, digits = 0;
  for (char c : s) {
    if (c == '.') {
      ++points;
    } else if (c >= '0' && c <= '9') {
      ++digits;
    } else {
      ok = false;
    }
  }
  double v = 0;
  if (ok && points <= 1 && digits > 0) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    ok = ec == std::errc{} && end == s.data() + s.size() && std::isfinite(v);
  } else {
    ok = false;
  }
  if (!ok) fail(key, fmt::format("\"{}\" is not a decimal number", s));
  if (v < lo || v > hi) fail(key, fmt::format("{} is out of range [{}, {}]", s, lo, hi));
  return v;
}

Duration ParamReader::duration(std::string_view key) const {
  const std::string& s = text(key);
  Duration d{0};
  try {
    const bool bare = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    if (bare) {
      std::int64_t us = 0;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), us);
      if (ec != std::errc{}) throw std::invalid_argument("too large");
      d = duration_from_micros(us);
    } else {
      d = parse_duration(s);
    }
  } catch (const std::invalid_argument& e) {
    fail(key, fmt::format("\"{}\" is not a duration: {}", s, e.what()));
  }
  if (d <= Duration::zero()) fail(key, "must be > 0");
  return d;
}

bool ParamReader::boolean(std::string_view key) const {
  const std::string& s = text(key);
  if (s == "true") return true;
  if (s == "false") return false;
  fail(key, fmt::format("\"{}\" is not true or false", s));
}

std::string ParamReader::choice(std::string_view key,
                                const std::vector<std::string_view>& choices) const {
  const std::string& s = text(key);
  std::string all;
  for (std::string_view c : choices) {
    if (c == s) return s;
    all += (all.empty() ? "\"" : ", \"") + std::string(c) + "\"";
  }
  fail(key, fmt::format("\"{}\" is not one of {}", s, all));
}

}  // namespace rtpar::gen
