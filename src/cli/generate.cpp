// generate.cpp — `rtpar generate KIND [--param key=value]... --seed N [--count K] --out DIR`:
// draws task sets with the deterministic generators (rtpar/tools/generate.hpp, docs/generate.md)
// and writes each as a task-set file. `--list` prints the families and their parameters.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "cli/commands.hpp"
#include "gen/lock_channels.hpp"
#include "rtpar/error.hpp"
#include "rtpar/tools/generate.hpp"

namespace rtpar::cli {

namespace {

// GenerateOptions are the parsed options of `rtpar generate`.
struct GenerateOptions {
  std::string kind;
  std::vector<std::string> params;
  std::uint64_t seed = 0;
  bool seed_given = false;
  int count = 1;
  std::string out;
  bool list = false;
};

// kCommandLine names the command line in errors.
const SourceLocation kCommandLine{"<command line>", 0, 0};

// print_list prints every family with its parameters and defaults.
void print_list() {
  for (const gen::FamilyInfo& f : gen::families()) {
    fmt::print("{}: {}\n", f.name, f.help);
    for (const gen::ParamInfo& p : f.params) {
      fmt::print("  {:<18} = {:<14} {}\n", p.name, p.default_value, p.help);
    }
  }
  fmt::print(
      "every family: lock channels (--locks N, --lock-users K, --lock-hold F, "
      "--lock-accesses A)\n");
  for (const gen::ParamInfo& p : gen::lock_param_infos()) {
    fmt::print("  {:<18} = {:<14} {}\n", p.name, p.default_value, p.help);
  }
}

// parse_params turns `--param key=value` strings into generator parameters.
gen::Params parse_params(const std::vector<std::string>& raw) {
  gen::Params params;
  for (const std::string& kv : raw) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size()) {
      throw InputError(kCommandLine, "--param",
                       fmt::format("\"{}\" is not key=value (e.g. --param cores=40)", kv));
    }
    const std::string key = kv.substr(0, eq);
    if (!params.emplace(key, gen::Param{kv.substr(eq + 1), {}}).second) {
      throw InputError(kCommandLine, "generator." + key, "given twice");
    }
  }
  return params;
}

// write_atomically writes text to path through a temporary file in the same directory and a
// rename, so a reader never sees a half-written set (an interrupted run leaves at most a
// ".tmp" file behind).
void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw InputError(kCommandLine, "--out", fmt::format("cannot write {}", tmp.string()));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw InputError(kCommandLine, "--out",
                     fmt::format("cannot rename into {}: {}", path.string(), ec.message()));
  }
}

// file_name is KIND-SEED-III.toml, the index zero-padded to at least 3 digits (to the width of
// the largest index when --count exceeds 1000), so that names sort in generation order.
std::string file_name(const std::string& kind, std::uint64_t seed, int index, int count) {
  const int width = std::max<int>(3, static_cast<int>(std::to_string(count - 1).size()));
  return fmt::format("{}-{}-{:0{}}.toml", kind, seed, index, width);
}

// run_generate draws and writes the sets.
int run_generate(const GenerateOptions& o) {
  if (o.list) {
    print_list();
    return kExitOk;
  }
  if (o.kind.empty()) {
    throw InputError(kCommandLine, "KIND",
                     "a generator family is required (rtpar generate --list)");
  }
  if (!o.seed_given) throw InputError(kCommandLine, "--seed", "required");
  if (o.out.empty()) throw InputError(kCommandLine, "--out", "required");
  const gen::Params params = parse_params(o.params);
  std::string param_text;
  for (const auto& [k, p] : params) param_text += fmt::format(" --param {}={}", k, p.value);
  // Draw every set before writing any, so that bad parameters leave DIR untouched.
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 0; i < o.count; ++i) {
    const std::uint64_t seed = gen::derive_seed(o.seed, static_cast<std::uint64_t>(i));
    const gen::Generated g = gen::generate(o.kind, params, seed);
    double util = 0;
    for (const TaskSpec& t : g.set.tasks) util += t.utilization();
    const std::string header = fmt::format(
        "rtpar generate {}{} --seed {}: set {} (generator seed {}), {} tasks, utilization {:.6f}, "
        "{} redraws\nformat: docs/taskset.md; generators: docs/generate.md",
        o.kind, param_text, o.seed, i, seed, g.set.tasks.size(), util, g.redraws);
    files.emplace_back(file_name(o.kind, o.seed, i, o.count), gen::to_toml(g.set, header));
    fmt::print("{} tasks={} utilization={:.6f} redraws={}\n", files.back().first,
               g.set.tasks.size(), util, g.redraws);
  }
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  if (ec) {
    throw InputError(kCommandLine, "--out",
                     fmt::format("cannot create directory {}: {}", o.out, ec.message()));
  }
  for (const auto& [name, text] : files) {
    write_atomically(std::filesystem::path(o.out) / name, text);
  }
  return kExitOk;
}

}  // namespace

Command add_generate(CLI::App& app) {
  auto opts = std::make_shared<GenerateOptions>();
  app.add_option("KIND", opts->kind, "Generator family (--list shows them)");
  app.add_option("--param", opts->params, "A generator parameter key=value (repeatable)")
      ->take_all()
      ->allow_extra_args(false);
  app.add_option_function<std::uint64_t>(
      "--seed",
      [opts](std::uint64_t s) {
        opts->seed = s;
        opts->seed_given = true;
      },
      "Seed of the sequence (set i uses splitmix64-derived seed i)");
  app.add_option("--count", opts->count, "Number of sets (a prefix-stable sequence)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--out", opts->out, "Directory for KIND-SEED-III.toml files");
  app.add_flag("--list", opts->list, "List the families and their parameters");
  // The lock options are --param locks=N etc. (every family accepts them: gen/lock_channels.hpp).
  for (const auto& [flag, key] : {std::pair<const char*, const char*>{"--locks", "locks"},
                                  {"--lock-users", "lock_users"},
                                  {"--lock-hold", "lock_hold"},
                                  {"--lock-accesses", "lock_accesses"}}) {
    app.add_option_function<std::string>(
        flag,
        [opts, key = std::string(key)](const std::string& v) {
          opts->params.push_back(key + "=" + v);
        },
        std::string("Same as --param ") + key + "=VALUE (lock channels; --list)");
  }
  return [opts]() { return run_generate(*opts); };
}

}  // namespace rtpar::cli
