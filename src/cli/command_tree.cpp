// command_tree.cpp — describe_command, command_line, all_commands.
#include "cli/command_tree.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rtpar::cli {

namespace {

// option_info reads one CLI11 option.
OptionInfo option_info(const CLI::Option& opt) {
  OptionInfo info;
  for (const std::string& l : opt.get_lnames()) info.names.push_back("--" + l);
  for (const std::string& s : opt.get_snames()) info.names.push_back("-" + s);
  if (!opt.nonpositional()) info.positional = opt.get_name();
  // A flag expects no value (CLI11's add_flag sets expected(0)).
  if (opt.get_expected_max() != 0 && opt.get_type_size() != 0) {
    info.value = opt.get_type_name();
    if (info.value.empty()) info.value = "VALUE";
  }
  info.description = opt.get_description();
  info.required = opt.get_required();
  info.many = opt.get_items_expected_max() > 1;
  return info;
}

// collect appends command and everything below it to out, depth first.
void collect(const CommandInfo& command, std::vector<const CommandInfo*>& out) {
  out.push_back(&command);
  for (const CommandInfo& sub : command.subcommands) collect(sub, out);
}

}  // namespace

CommandInfo describe_command(const CLI::App& app, std::vector<std::string> path) {
  CommandInfo info;
  info.path = std::move(path);
  info.description = app.get_description();
  info.needs_subcommand = app.get_require_subcommand_min() > 0;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_group().empty()) continue;  // hidden
    OptionInfo o = option_info(*opt);
    (o.positional.empty() ? info.options : info.positionals).push_back(std::move(o));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden: `completion`, `man`
    std::vector<std::string> sub_path = info.path;
    sub_path.push_back(sub->get_name());
    info.subcommands.push_back(describe_command(*sub, std::move(sub_path)));
  }
  return info;
}

std::string command_line(const CommandInfo& command) {
  return command.path.empty() ? std::string("rtpar")
                              : fmt::format("rtpar {}", fmt::join(command.path, " "));
}

std::vector<const CommandInfo*> all_commands(const CommandInfo& root) {
  std::vector<const CommandInfo*> out;
  collect(root, out);
  return out;
}

}  // namespace rtpar::cli
