// test_duration_flag.cpp — parse_duration_flag: the one command-line duration parser.
#include <doctest/doctest.h>

#include <string>

#include "core/duration_flag.hpp"
#include "rtpar/error.hpp"

namespace {

// flag_error is the message parse_duration_flag throws for `text`, or "" when it parses.
std::string flag_error(const char* text, rtpar::DurationFloor floor) {
  try {
    (void)rtpar::parse_duration_flag("--horizon", text, floor);
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == "--horizon");
    CHECK(e.where().file == "<command line>");
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("duration flag: values with a unit, exact") {
  using rtpar::DurationFloor;
  CHECK(rtpar::parse_duration_flag("--duration", "1.5ms", DurationFloor::positive).count() ==
        1'500'000);
  CHECK(rtpar::parse_duration_flag("--context-switch", "0us", DurationFloor::zero).count() == 0);
}

TEST_CASE("duration flag: the floor, the sign and the syntax name the flag and the text") {
  using rtpar::DurationFloor;
  CHECK(flag_error("0s", DurationFloor::positive).find("'0s': must be > 0") != std::string::npos);
  CHECK(flag_error("0s", DurationFloor::zero).empty());
  CHECK(flag_error("-1ms", DurationFloor::zero).find("'-1ms': must be >= 0") != std::string::npos);
  CHECK(flag_error("-1ms", DurationFloor::positive).find("'-1ms': must be > 0") !=
        std::string::npos);
  // No bare integers on the command line: a unit is required.
  CHECK(flag_error("10", DurationFloor::positive).find("'10': invalid duration") !=
        std::string::npos);
  CHECK(flag_error("", DurationFloor::zero).find("'': invalid duration") != std::string::npos);
}
