// main.cpp — the `rtpar` command: dispatches to one subcommand and maps errors to exit statuses.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/command_main.hpp"
#include "cli/commands.hpp"
#include "cli/completion.hpp"
#include "cli/man_page.hpp"
#include "cli/simulate.hpp"
#include "cli/suggest.hpp"

int main(int argc, char** argv) try {
  using namespace rtpar::cli;
  CLI::App app{"rtpar — parallel real-time tasks on multicore Linux"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text(), "Print rtpar's version and exit");
  rtpar::cli::Commands commands;
  CLI::App* check = app.add_subcommand("check", "Admission control: print the Plan of a task set");
  commands.emplace_back(check, add_check(*check));
  CLI::App* run = app.add_subcommand("run", "Run a task set on pinned real-time threads");
  commands.emplace_back(run, add_run(*run));
  CLI::App* simulate =
      app.add_subcommand("simulate", "Simulate the Plan of a task set (any machine, no privilege)");
  commands.emplace_back(simulate, add_simulate(*simulate));
  CLI::App* profile = app.add_subcommand(
      "profile", "Measure each task's work and span alone on its cores (for check --measured)");
  commands.emplace_back(profile, add_profile(*profile));
  CLI::App* calibrate =
      app.add_subcommand("calibrate", "Measure fork/join cost per team size for the analysis");
  commands.emplace_back(calibrate, add_calibrate(*calibrate));
  CLI::App* generate =
      app.add_subcommand("generate", "Draw task sets with a deterministic generator");
  commands.emplace_back(generate, add_generate(*generate));
  // `rtpar bench ...` runs rtpar-bench (bench.cpp): the benchmarks are a program of their own.
  CLI::App* bench = app.add_subcommand("bench", "Benchmarks against peer runtimes (same run)");
  commands.emplace_back(bench, add_bench(*bench));

  CLI::App* omp =
      app.add_subcommand("omp", "Run an unchanged OpenMP program on rtpar's OpenMP runtime");
  commands.emplace_back(omp, add_omp(*omp));

  CLI::App* plot = app.add_subcommand(
      "plot", "Draw a run's histogram, response over time and per-core timeline (PNG)");
  commands.emplace_back(plot, add_plot(*plot));

  CLI::App* experiment = app.add_subcommand(
      "experiment", "Reproducible studies over generated task sets (manifests, shards, merge)");
  commands.emplace_back(experiment, add_experiment(*experiment));

  // Hidden (no group): the shell completions and the man page, generated from the definitions
  // above when they run (make install writes them; docs/cli.md "Installing").
  CLI::App* completion =
      app.add_subcommand("completion", "Print the bash or zsh completion script")->group("");
  commands.emplace_back(completion, add_completion(*completion, app));
  CLI::App* man = app.add_subcommand("man", "Print the rtpar(1) man page (roff)")->group("");
  commands.emplace_back(man, add_man(*man, app));

  return rtpar::cli::run_commands(app, commands, argc, argv);
} catch (const std::exception& e) {
  // Building the command line itself failed (out of memory, say): still no uncaught exception.
  std::fprintf(stderr, "rtpar: internal error: %s\n", e.what());
  return rtpar::kExitInternal;
}
