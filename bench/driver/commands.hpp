// commands.hpp — the subcommands of `rtpar-bench` (run as `rtpar bench ...`). Each registers its
// options on the CLI11 app and returns the process exit status (src/core/exit_status.hpp: the
// same table as `rtpar`'s).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command_main.hpp"

namespace rtpar::bench {

// Command is a subcommand's action (cli/command_main.hpp).
using rtpar::cli::Command;

// add_bench_forkjoin registers the options of `rtpar bench forkjoin` (bench_forkjoin.cpp).
Command add_bench_forkjoin(CLI::App& app);

// add_bench_latency registers the options of `rtpar bench latency`: the RT-OpenMP §VI-B
// scheduling- and barrier-latency microbenchmarks (bench_latency.cpp).
Command add_bench_latency(CLI::App& app);

// add_bench_channels registers the options of `rtpar bench channels`: OpenMP-RT Fig. 3 and
// Fig. 4 reproduced on rtpar's channels (bench_channels.cpp).
Command add_bench_channels(CLI::App& app);

// add_bench_planners registers the options of `rtpar bench planners`: planning time of many task
// sets in process, per planner (bench_planners.cpp).
Command add_bench_planners(CLI::App& app);

// add_bench_wcet registers the options of `rtpar bench wcet`: OpenMP-RT Table 1, the WCETs of
// the BOTS/EPCC task kernels, sequential and 2 threads (bench_wcet.cpp).
Command add_bench_wcet(CLI::App& app);

}  // namespace rtpar::bench
