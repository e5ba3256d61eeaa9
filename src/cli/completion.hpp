// completion.hpp — bash and zsh completion scripts for `rtpar`, generated from the command tree
// (command_tree.hpp), and the hidden `rtpar completion bash|zsh` that prints them.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/command_main.hpp"
#include "cli/command_tree.hpp"

namespace rtpar::cli {

// bash_completion is a bash script defining `_rtpar` and registering it with `complete` for
// rtpar: subcommands, then options (after '-'), file names for option values and positionals.
std::string bash_completion(const CommandInfo& root);

// zsh_completion is a zsh `#compdef rtpar` function: subcommands and options with their
// descriptions, file names for option values and positionals.
std::string zsh_completion(const CommandInfo& root);

// add_completion registers the hidden `rtpar completion SHELL` on sub, printing the script for
// root (the whole command line, read when the command runs). An unknown shell exits 2.
Command add_completion(CLI::App& sub, const CLI::App& root);

}  // namespace rtpar::cli
