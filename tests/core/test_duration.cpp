// test_duration.cpp — parse_duration / format_duration: exact values, rounding, and rejections.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "rtpar/time.hpp"

using namespace std::chrono_literals;
using rtpar::Duration;
using rtpar::format_duration;
using rtpar::parse_duration;

namespace {

// rejection returns parse_duration's error message for text (failing the test if it parses).
std::string rejection(const std::string& text) {
  try {
    (void)parse_duration(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  FAIL("parse_duration accepted \"" << text << "\"");
  return {};
}

}  // namespace

TEST_CASE("duration: every unit") {
  CHECK(parse_duration("800ns") == 800ns);
  CHECK(parse_duration("250us") == 250us);
  CHECK(parse_duration("250\u00b5s") == 250us);  // MICRO SIGN
  CHECK(parse_duration("250\u03bcs") == 250us);  // GREEK SMALL LETTER MU
  CHECK(parse_duration("10ms") == 10ms);
  CHECK(parse_duration("3s") == 3s);
  CHECK(parse_duration("2min") == 120s);
  CHECK(parse_duration("0ms") == 0ns);  // zero is the caller's business
}

TEST_CASE("duration: decimal fractions are exact") {
  CHECK(parse_duration("1.5s") == 1500ms);
  CHECK(parse_duration("0.25ms") == 250us);
  CHECK(parse_duration("0.1ms") == 100us);  // not 99999ns, as a double would give
  CHECK(parse_duration("1.000000001s") == 1000000001ns);
  CHECK(parse_duration("0.5min") == 30s);
  CHECK(parse_duration("1.25min") == 75s);
  CHECK(parse_duration("007ms") == 7ms);
  CHECK(parse_duration("2.50us") == 2500ns);
}

TEST_CASE("duration: rounds to the nearest nanosecond, halves up") {
  CHECK(parse_duration("0.4ns") == 0ns);
  CHECK(parse_duration("0.5ns") == 1ns);
  CHECK(parse_duration("1.49999ns") == 1ns);
  CHECK(parse_duration("0.0015us") == 2ns);
  CHECK(parse_duration("0.00000000001min") == 1ns);  // 0.6ns
  // Digits far past the nanosecond still decide the rounding, exactly.
  CHECK(parse_duration("0.4999999999999999999999999999ns") == 0ns);
  CHECK(parse_duration("0.000000000008333333333333333333333333min") == 0ns);  // 0.4999…ns
  CHECK(parse_duration("0.000000000008333333333333333333333334min") == 1ns);  // 0.5000…ns
}

TEST_CASE("duration: whitespace between number and unit") {
  CHECK(parse_duration("10 ms") == 10ms);
  CHECK(parse_duration("1.5\ts") == 1500ms);
  CHECK(parse_duration("  20us  ") == 20us);
}

TEST_CASE("duration: the int64 limit is exact") {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  CHECK(parse_duration("9223372036854775807ns") == Duration(kMax));
  CHECK(parse_duration("9223372036.854775807s") == Duration(kMax));
  CHECK(rejection("9223372036854775808ns").find("too large") != std::string::npos);
  CHECK(rejection("9223372036.8547758075s").find("too large") != std::string::npos);  // rounds up
  CHECK(rejection("1000000000000min").find("too large") != std::string::npos);
  CHECK(rejection("99999999999999999999999999999s").find("too large") != std::string::npos);
  CHECK(parse_duration("000000000000000000000000000001s") == 1s);  // leading zeros are not size
}

TEST_CASE("duration: rejects malformed text with a reason") {
  CHECK(rejection("").find("empty") != std::string::npos);
  CHECK(rejection("   ").find("empty") != std::string::npos);
  CHECK(rejection("10").find("missing unit") != std::string::npos);
  CHECK(rejection("1.5").find("missing unit") != std::string::npos);
  CHECK(rejection("10 parsecs").find("unknown unit \"parsecs\"") != std::string::npos);
  CHECK(rejection("10h").find("unknown unit \"h\"") != std::string::npos);
  CHECK(rejection("10MS").find("unknown unit") != std::string::npos);  // units are case-sensitive
  CHECK(rejection("10ms garbage").find("unknown unit") != std::string::npos);
  CHECK(rejection("nan").find("not a number") != std::string::npos);
  CHECK(rejection("NaNms").find("not a number") != std::string::npos);
  CHECK(rejection("inf").find("finite") != std::string::npos);
  CHECK(rejection("-infms").find("finite") != std::string::npos);
  CHECK(rejection("-5ms").find("negative") != std::string::npos);
  CHECK(rejection("+5ms").find("expected a number") != std::string::npos);
  CHECK(rejection("ms").find("expected a number") != std::string::npos);
  CHECK(rejection("1.2.3ms").find("two decimal points") != std::string::npos);
  CHECK(rejection("1.ms").find("digits after the decimal point") != std::string::npos);
  CHECK(rejection(".5ms").find("digit must precede") != std::string::npos);
  CHECK(rejection("1e3ms").find("exponents are not supported") != std::string::npos);
  CHECK(rejection("1.5E-3s").find("exponents are not supported") != std::string::npos);
  CHECK(rejection("1,5ms").find("unknown unit") != std::string::npos);
}

TEST_CASE("duration: error messages quote the input") {
  CHECK(rejection("10 parsecs").rfind("invalid duration \"10 parsecs\": ", 0) == 0);
}

TEST_CASE("duration: format picks the largest unit and stays exact") {
  CHECK(format_duration(1500us) == "1.5ms");
  CHECK(format_duration(20ms) == "20ms");
  CHECK(format_duration(800ns) == "800ns");
  CHECK(format_duration(0ns) == "0ns");
  CHECK(format_duration(1s) == "1s");
  CHECK(format_duration(120s) == "120s");
  CHECK(format_duration(250us) == "250us");
  CHECK(format_duration(1000000001ns) == "1.000000001s");
  CHECK(format_duration(-1500us) == "-1.5ms");
  CHECK(format_duration(Duration(std::numeric_limits<std::int64_t>::min())) ==
        "-9223372036.854775808s");
}

TEST_CASE("duration: format output parses back to the same value") {
  for (const std::int64_t ns :
       {std::int64_t{1}, std::int64_t{999}, std::int64_t{1001}, std::int64_t{123456789},
        std::int64_t{60'000'000'000}, std::numeric_limits<std::int64_t>::max()}) {
    CAPTURE(ns);
    CHECK(parse_duration(format_duration(Duration(ns))) == Duration(ns));
  }
}

TEST_CASE("duration: display rounding with max_decimals") {
  using rtpar::format_duration;
  CHECK(format_duration(rtpar::Duration(12'020'867), 3) == "12.021ms");
  CHECK(format_duration(rtpar::Duration(12'020'467), 3) == "12.02ms");
  CHECK(format_duration(rtpar::Duration(12'000'400), 3) == "12ms");
  CHECK(format_duration(rtpar::Duration(1'999'999'999), 3) == "2s");  // carry into the whole
  CHECK(format_duration(rtpar::Duration(999'999), 3) == "999.999us");
  CHECK(format_duration(rtpar::Duration(999'9995), 0) == "10ms");
  CHECK(format_duration(rtpar::Duration(-1'500'400), 1) == "-1.5ms");
  CHECK(format_duration(rtpar::Duration(800), 3) == "800ns");
  CHECK(format_duration(rtpar::Duration(12'020'867)) == "12.020867ms");  // exact by default
}
