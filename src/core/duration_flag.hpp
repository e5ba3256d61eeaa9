// duration_flag.hpp — the one parser of a duration given on the command line (`--duration 10s`,
// `--horizon 1s`, `--context-switch 0us`, ...), for every `rtpar` command.
//
// The command line, unlike a task-set file, has no bare-integer rule: every value needs a unit
// (parse_duration). Errors are InputErrors at "<command line>" naming the flag, so every command
// reports a bad duration the same way (exit status 2).
#pragma once

#include <string_view>

#include "rtpar/time.hpp"

namespace rtpar {

// DurationFloor is the least value a flag accepts.
enum class DurationFloor {
  zero,      // ≥ 0 ("0us" turns a cost off)
  positive,  // > 0 (a length of time something runs)
};

// parse_duration_flag parses the value `text` of the command-line flag `flag`: a duration with a
// unit at or above `floor`. Throws InputError (location "<command line>", field `flag`, message
// "'TEXT': why"); a leading '-' is named as the sign ("must be >= 0" / "must be > 0"), not as a
// syntax error.
Duration parse_duration_flag(std::string_view flag, std::string_view text, DurationFloor floor);

}  // namespace rtpar
