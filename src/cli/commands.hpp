// commands.hpp — the `rtpar` subcommands. Each registers its options on the CLI11 app and
// returns the process exit status (exit_status.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command_main.hpp"

namespace rtpar::cli {

// add_check registers `rtpar check FILE [--json]`.
Command add_check(CLI::App& app);

// add_run registers `rtpar run FILE [--duration D] [--json] [--out DIR] [--fail-on-miss]
// [--best-effort] [--no-mlock]`.
Command add_run(CLI::App& app);

// add_profile registers `rtpar profile FILE [--task NAME] [--runs N] [--out FILE] [--best-effort]
// [--planner NAME] [--assign KIND] [--overhead FILE]` (profile.cpp).
Command add_profile(CLI::App& app);

// add_bench registers `rtpar bench ARGS...`: a forwarder that runs rtpar-bench (bench.cpp).
Command add_bench(CLI::App& app);

// add_calibrate registers `rtpar calibrate [--threads N] [--iters K] [--fifo] [--out FILE]`.
Command add_calibrate(CLI::App& app);

// add_omp registers `rtpar omp [--cores LIST] [--fifo PRIO] [--wait KIND] [--threads N] --
// PROGRAM [ARGS]` (omp.cpp).
Command add_omp(CLI::App& app);

// add_generate registers `rtpar generate KIND [--param key=value]... --seed N [--count K]
// --out DIR [--list]` (generate.cpp).
Command add_generate(CLI::App& app);

// add_plot registers `rtpar plot DIR [--out PNGDIR]`: histogram, response-over-time and per-core
// timeline PNGs of a run's report directory (plot.cpp, tools/plot_run.py).
Command add_plot(CLI::App& app);

// add_experiment registers `rtpar experiment list|show|points|run|merge|plot|status|estimate|emit|
// slurm` (experiment.cpp, docs/experiments.md).
Command add_experiment(CLI::App& app);

}  // namespace rtpar::cli
