// duration.cpp — exact parsing and short formatting of durations such as "1.5ms".
//
// Durations drive schedulability analysis, so "0.1ms" must be exactly 100000ns. The parser never
// goes through floating point: it keeps the number as decimal digits, applies the unit by moving
// the decimal point, and rounds once to the nearest nanosecond.
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "rtpar/time.hpp"

namespace rtpar {

namespace {

// Unit is one accepted suffix. Its scale to nanoseconds is multiplier × 10^shift: the power of ten
// is applied by shifting the decimal point, so only a one-digit multiplication remains.
struct Unit {
  std::string_view suffix;
  std::size_t shift;
  int multiplier;
};

constexpr std::array<Unit, 7> kUnits{{
    {"ns", 0, 1},
    {"us", 3, 1},
    {"\u00b5s", 3, 1},  // "µs" with MICRO SIGN, as people copy it from documents
    {"\u03bcs", 3, 1},  // "μs" with GREEK SMALL LETTER MU, its look-alike
    {"ms", 6, 1},
    {"s", 9, 1},
    {"min", 10, 6},  // 60 s = 6 × 10^10 ns
}};

constexpr std::string_view kUnitList = "ns, us, ms, s or min";

// reject throws the std::invalid_argument parse_duration documents, quoting the input.
[[noreturn]] void reject(std::string_view text, const std::string& why) {
  throw std::invalid_argument("invalid duration \"" + std::string(text) + "\": " + why);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t'; }

// starts_with_word tells whether text begins with word, ignoring ASCII case (for "NaN", "Inf").
bool starts_with_word(std::string_view text, std::string_view word) {
  if (text.size() < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != word[i]) return false;
  }
  return true;
}

// multiply_digits multiplies the decimal digit string in place by m (0..9) and returns the carry
// out of the leading digit (0..8).
int multiply_digits(std::string& digits, int m) {
  int carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const int v = (*it - '0') * m + carry;
    *it = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  return carry;
}

// to_nanoseconds converts decimal digits (leading zeros allowed) plus a rounding increment to a
// count of nanoseconds, or reports overflow of the signed 64-bit range.
Duration to_nanoseconds(std::string_view text, std::string_view whole, bool round_up) {
  while (whole.size() > 1 && whole.front() == '0') whole.remove_prefix(1);
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const std::string too_large =
      "too large (the limit is " + std::to_string(kMax) + "ns, about 292 years)";
  // 19 digits always fit in uint64 (< 1.8e19); more digits can only be an overflow.
  if (whole.size() > 19) reject(text, too_large);
  std::uint64_t value = 0;
  for (char c : whole) value = value * 10 + static_cast<std::uint64_t>(c - '0');
  if (value > kMax || (round_up && value == kMax)) reject(text, too_large);
  return Duration(static_cast<std::int64_t>(value + (round_up ? 1 : 0)));
}

}  // namespace

Duration parse_duration(std::string_view text) {
  const std::string_view original = text;
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (text.empty()) reject(original, "empty; expected a number and a unit such as \"10ms\"");

  std::string_view unsigned_text = text;
  if (text.front() == '-' || text.front() == '+') unsigned_text.remove_prefix(1);
  if (starts_with_word(unsigned_text, "nan")) reject(original, "not a number");
  if (starts_with_word(unsigned_text, "inf")) reject(original, "must be finite");
  if (text.front() == '-') reject(original, "must not be negative");

  // number := digits [ "." digits ]
  std::size_t i = 0;
  while (i < text.size() && is_digit(text[i])) ++i;
  if (i == 0) {
    if (text.front() == '.') {
      reject(original, "a digit must precede the decimal point (write \"0.5ms\", not \".5ms\")");
    }
    reject(original, "expected a number before the unit, as in \"10ms\"");
  }
  std::string whole(text.substr(0, i));
  std::string fraction;
  if (i < text.size() && text[i] == '.') {
    const std::size_t begin = ++i;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i == begin) reject(original, "expected digits after the decimal point");
    fraction = text.substr(begin, i - begin);
  }
  if (i < text.size() && text[i] == '.') reject(original, "malformed number (two decimal points)");
  if (i + 1 < text.size() && (text[i] == 'e' || text[i] == 'E') &&
      (is_digit(text[i + 1]) || text[i + 1] == '+' || text[i + 1] == '-')) {
    reject(original, "exponents are not supported; write the number out (e.g. \"1000ms\")");
  }
  while (i < text.size() && is_space(text[i])) ++i;

  const std::string_view suffix = text.substr(i);
  if (suffix.empty()) {
    reject(original, "missing unit (use " + std::string(kUnitList) + ")");
  }
  const Unit* unit = nullptr;
  for (const Unit& u : kUnits) {
    if (u.suffix == suffix) unit = &u;
  }
  if (unit == nullptr) {
    reject(original,
           "unknown unit \"" + std::string(suffix) + "\" (use " + std::string(kUnitList) + ")");
  }

  // Scale by 10^shift: move `shift` fraction digits (zero-padded) into the whole part.
  if (fraction.size() < unit->shift) fraction.resize(unit->shift, '0');
  whole += fraction.substr(0, unit->shift);
  fraction.erase(0, unit->shift);

  // Scale by the multiplier on the concatenated digits, keeping track of the decimal point.
  std::string digits = whole + fraction;
  const int carry = multiply_digits(digits, unit->multiplier);
  std::string scaled_whole = digits.substr(0, whole.size());
  if (carry != 0) scaled_whole.insert(scaled_whole.begin(), static_cast<char>('0' + carry));
  const bool round_up = digits.size() > whole.size() && digits[whole.size()] >= '5';
  return to_nanoseconds(original, scaled_whole, round_up);
}

std::string format_duration(Duration d, int max_decimals) {
  struct Scale {
    const char* suffix;
    std::uint64_t ns;
    int digits;  // decimal places needed to show any remainder exactly
  };
  static constexpr std::array<Scale, 4> kScales{{
      {"s", 1'000'000'000, 9},
      {"ms", 1'000'000, 6},
      {"us", 1'000, 3},
      {"ns", 1, 0},
  }};
  const std::int64_t count = d.count();
  // The magnitude is computed in unsigned arithmetic so that INT64_MIN negates without overflow.
  const std::uint64_t magnitude =
      count < 0 ? 0 - static_cast<std::uint64_t>(count) : static_cast<std::uint64_t>(count);
  const Scale* scale = &kScales.back();
  for (const Scale& s : kScales) {
    if (magnitude >= s.ns) {
      scale = &s;
      break;
    }
  }
  std::uint64_t whole = magnitude / scale->ns;
  std::uint64_t rest = magnitude % scale->ns;
  int digits = scale->digits;
  if (max_decimals >= 0 && digits > max_decimals) {
    // Display form: round half up to max_decimals places, carrying into the whole part.
    std::uint64_t unit = 1;
    for (int k = max_decimals; k < digits; ++k) unit *= 10;
    rest = (rest + unit / 2) / unit;
    digits = max_decimals;
    if (rest * unit >= scale->ns) {
      ++whole;
      rest = 0;
    }
  }
  std::string out = count < 0 ? "-" : "";
  out += std::to_string(whole);
  // By default the remainder is printed exactly (trailing zeros trimmed) so the text parses back
  // to d.
  if (rest != 0) {
    std::string fraction = std::to_string(rest);
    fraction.insert(0, static_cast<std::size_t>(digits) - fraction.size(), '0');
    while (fraction.back() == '0') fraction.pop_back();
    out += '.' + fraction;
  }
  return out + scale->suffix;
}

Duration duration_from_micros(std::int64_t us) {
  if (us < 0) throw std::invalid_argument("duration must not be negative");
  if (us > std::numeric_limits<std::int64_t>::max() / 1000) {
    throw std::invalid_argument("duration overflows 64-bit nanoseconds");
  }
  return Duration(us * 1000);
}

}  // namespace rtpar
