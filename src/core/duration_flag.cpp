// duration_flag.cpp — parse_duration_flag: parse_duration for a command-line flag.
#include "core/duration_flag.hpp"

#include <stdexcept>
#include <string>

#include "rtpar/error.hpp"

namespace rtpar {

Duration parse_duration_flag(std::string_view flag, std::string_view text, DurationFloor floor) {
  const char* bound = floor == DurationFloor::positive ? "must be > 0" : "must be >= 0";
  const auto fail = [&](const std::string& why) {
    return InputError(SourceLocation{"<command line>", 0, 0}, std::string(flag),
                      "'" + std::string(text) + "': " + why);
  };
  if (!text.empty() && text.front() == '-') throw fail(bound);
  Duration d{0};
  try {
    d = parse_duration(text);
  } catch (const std::invalid_argument& e) {
    throw fail(e.what());
  }
  if (floor == DurationFloor::positive && d.count() <= 0) throw fail(bound);
  return d;
}

}  // namespace rtpar
