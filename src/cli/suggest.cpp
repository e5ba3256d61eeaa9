// suggest.cpp — edit_distance, closest, unknown_command_hint, unknown_option_hint, version_text.
#include "cli/suggest.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#ifndef RTPAR_VERSION_STRING
#define RTPAR_VERSION_STRING "unknown"
#endif
#ifndef RTPAR_GIT_DESCRIBE
#define RTPAR_GIT_DESCRIBE "unknown"
#endif

namespace rtpar::cli {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the dynamic-programming table at a time (Wagner–Fischer).
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string closest(std::string_view typed, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, typed.size() / 3) + 1;
  std::vector<std::string> prefixed;
  for (const std::string& c : candidates) {
    if (!typed.empty() && c.compare(0, typed.size(), typed) == 0) prefixed.push_back(c);
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  if (best.empty() && prefixed.size() == 1) return prefixed[0];
  return best;
}

std::string unknown_command_hint(const CLI::App& app, int argc, char** argv) {
  if (argc < 2) return {};
  const std::string_view first = argv[1];
  if (first.empty() || first[0] == '-') return {};
  // Hidden commands (no group: `completion`, `man`) are known but neither listed nor suggested.
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == first) return {};
    if (!sub->get_group().empty()) names.push_back(sub->get_name());
  }
  const std::string guess = closest(first, names);
  return fmt::format("unknown command '{}'{}; the commands are: {}", first,
                     guess.empty() ? std::string() : fmt::format("; did you mean '{}'?", guess),
                     fmt::join(names, ", "));
}

std::string unknown_option_hint(const CLI::App& app, int argc, char** argv) {
  // The deepest subcommand named on the command line decides which options are known.
  const CLI::App* scope = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    for (const CLI::App* sub : scope->get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->get_name() == arg) {
        scope = sub;
        break;
      }
    }
  }
  std::vector<std::string> names;
  for (const CLI::Option* opt : scope->get_options()) {
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
  }
  std::string out;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    arg = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), arg) != names.end()) continue;
    const std::string guess = closest(arg, names);
    if (!guess.empty()) out += fmt::format("{}: unknown option; did you mean '{}'?\n", arg, guess);
  }
  return out;
}

std::string version_text() {
  return fmt::format("rtpar {} (git {})", RTPAR_VERSION_STRING, RTPAR_GIT_DESCRIBE);
}

}  // namespace rtpar::cli
