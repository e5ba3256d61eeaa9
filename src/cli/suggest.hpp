// suggest.hpp — "did you mean" for a mistyped command or option, and the version text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace rtpar::cli {

// edit_distance is the Levenshtein distance between a and b (insert, delete, substitute: 1 each).
std::size_t edit_distance(std::string_view a, std::string_view b);

// closest is the candidate nearest to `typed` if it is close enough to be a likely typo (distance
// ≤ max(1, |typed| / 3), or `typed` a prefix of exactly one candidate); empty otherwise.
std::string closest(std::string_view typed, const std::vector<std::string>& candidates);

// unknown_command_hint is the error text for argv when its first word is not one of app's
// subcommands ("unknown command 'chek'; did you mean 'check'?" and the list), or empty when the
// first word is an option or a known command.
std::string unknown_command_hint(const CLI::App& app, int argc, char** argv);

// unknown_option_hint names, for each "--option" in argv that the selected subcommand does not
// have, its closest option ("did you mean '--json'?"); empty when none is close.
std::string unknown_option_hint(const CLI::App& app, int argc, char** argv);

// version_text is "rtpar VERSION (git DESCRIBE)", as configured by CMake.
std::string version_text();

}  // namespace rtpar::cli
