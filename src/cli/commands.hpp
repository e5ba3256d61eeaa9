// commands.hpp — the `rtpar` subcommands. Each registers its options on the CLI11 app and
// returns the process exit status (0 ok, 1 not schedulable / misses, 2 bad input, 3 environment).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace rtpar::cli {

// Command is a subcommand's action, run after parsing; it returns the exit status.
using Command = std::function<int()>;

// add_check registers `rtpar check FILE [--json]`.
Command add_check(CLI::App& app);

// add_run registers `rtpar run FILE [--duration D] [--json] [--out DIR] [--fail-on-miss]
// [--best-effort] [--no-mlock]`.
Command add_run(CLI::App& app);

// add_calibrate registers `rtpar calibrate [--threads N] [--iters K] [--fifo] [--out FILE]`.
Command add_calibrate(CLI::App& app);

// add_bench_forkjoin registers the options of `rtpar bench forkjoin` (bench_forkjoin.cpp).
Command add_bench_forkjoin(CLI::App& app);

// add_bench_latency registers the options of `rtpar bench latency`: the rt-openmp.md §VI-B
// scheduling- and barrier-latency microbenchmarks (bench_latency.cpp).
Command add_bench_latency(CLI::App& app);

// add_bench_channels registers the options of `rtpar bench channels`: openmp-rt.md Fig. 3 and
// Fig. 4 reproduced on rtpar's channels (bench_channels.cpp).
Command add_bench_channels(CLI::App& app);

// Exit statuses shared by all subcommands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFail = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitEnvironment = 3;
// kExitTaskFailed: a task's code threw during `rtpar run` (the reports are still complete).
inline constexpr int kExitTaskFailed = 5;

}  // namespace rtpar::cli
