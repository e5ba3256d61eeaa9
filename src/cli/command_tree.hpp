// command_tree.hpp — the `rtpar` command line as plain data, read from the CLI11 app itself: the
// one source of the shell completions (completion.hpp) and the man page (man_page.hpp), so that
// neither can list an option the command does not have or miss one it has.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace rtpar::cli {

// OptionInfo is one option or positional argument of a command.
struct OptionInfo {
  std::vector<std::string> names;  // "--json", "-v" (empty for a positional)
  std::string positional;          // the positional's name ("file"); empty for an option
  std::string value;               // what a value looks like ("TEXT", "INT"); empty for a flag
  std::string description;
  bool required = false;
  bool many = false;  // takes any number of values (a positional list, a repeated option)
};

// CommandInfo is a command or subcommand with its options and, recursively, its subcommands.
struct CommandInfo {
  std::vector<std::string> path;  // {"experiment", "run"}; empty for `rtpar` itself
  std::string description;
  std::vector<OptionInfo> options;       // the options, in the order they were added
  std::vector<OptionInfo> positionals;   // in order
  std::vector<CommandInfo> subcommands;  // visible ones only, in the order they were added
  bool needs_subcommand = false;
};

// describe_command reads app (and its visible subcommands, recursively) into a CommandInfo;
// hidden subcommands and options (CLI11's empty group) are left out. path is app's own path.
CommandInfo describe_command(const CLI::App& app, std::vector<std::string> path = {});

// command_line is "rtpar" followed by the command's path ("rtpar experiment run").
std::string command_line(const CommandInfo& command);

// all_commands lists root and every subcommand below it, depth first (root first).
std::vector<const CommandInfo*> all_commands(const CommandInfo& root);

}  // namespace rtpar::cli
