// man_page.hpp — the rtpar(1) man page in roff (man macros), generated from the command tree
// (command_tree.hpp), and the hidden `rtpar man` that prints it.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/command_main.hpp"
#include "cli/command_tree.hpp"

namespace rtpar::cli {

// man_page is rtpar(1): NAME, SYNOPSIS, DESCRIPTION, one COMMANDS subsection per command and
// subcommand with its arguments and options, EXIT STATUS, FILES and SEE ALSO. version goes into
// the page's header.
std::string man_page(const CommandInfo& root, const std::string& version);

// roff_escape makes text safe in a roff line: backslashes and hyphens escaped, a leading '.' or
// '\'' guarded so it is never read as a request, non-ASCII characters as groff's \[uXXXX].
std::string roff_escape(std::string_view text);

// add_man registers the hidden `rtpar man` on sub, printing man_page for root.
Command add_man(CLI::App& sub, const CLI::App& root);

}  // namespace rtpar::cli
