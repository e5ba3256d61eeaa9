// command_main.hpp — parsing a command line and running the chosen subcommand, with the one
// mapping from errors to exit statuses (core/exit_status.hpp) that `rtpar` and `rtpar-bench`
// share. Header only: rtpar-bench compiles it without linking the rtpar command.
#pragma once

#include <CLI/CLI.hpp>

#include <exception>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "cli/suggest.hpp"
#include "core/exit_status.hpp"
#include "rtpar/error.hpp"

namespace rtpar::cli {

// Command is a subcommand's action, run after parsing; it returns the exit status.
using Command = std::function<int()>;

// Commands pairs each registered subcommand with its action.
using Commands = std::vector<std::pair<CLI::App*, Command>>;

// run_commands parses argv into app and runs the action of the subcommand given. Help exits 0; a
// usage error, InputError or no subcommand exits kExitBadInput; EnvironmentError kExitEnvironment
// with its hint; any other exception kExitInternal. Nothing escapes as an exception.
inline int run_commands(CLI::App& app, const Commands& commands, int argc, char** argv) {
  // The top-level app has no name of its own in CLI11: messages say "rtpar".
  const std::string name = app.get_name().empty() ? std::string("rtpar") : app.get_name();
  // `--name=` with nothing after '=' reads in CLI11 as the bare flag (`--json=` is `--json`) or as
  // an empty value: refused here, so that no empty option is silently taken as given or absent.
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.size() > 3 && arg.substr(0, 2) == "--" && arg.find('=') == arg.size() - 1) {
      fmt::print(stderr, "{}: error: {}: an empty value is not allowed\n", name,
                 arg.substr(0, arg.size() - 1));
      return kExitBadInput;
    }
  }
  if (const std::string hint = unknown_command_hint(app, argc, argv); !hint.empty()) {
    fmt::print(stderr, "{}: error: {}\n", name, hint);
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    fmt::print(stderr, "{}", unknown_option_hint(app, argc, argv));
    return kExitBadInput;
  }
  try {
    for (const auto& [sub, action] : commands) {
      if (sub->parsed()) return action();
    }
  } catch (const InputError& e) {
    fmt::print(stderr, "rtpar: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const EnvironmentError& e) {
    fmt::print(stderr, "rtpar: environment refused: {}\nhint: {}\n", e.what(), e.hint());
    return kExitEnvironment;
  } catch (const std::exception& e) {
    fmt::print(stderr, "rtpar: internal error: {}\n", e.what());
    return kExitInternal;
  }
  return kExitBadInput;
}

}  // namespace rtpar::cli
