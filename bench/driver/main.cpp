// main.cpp — `rtpar-bench`, run as `rtpar bench ...`: the benchmarks against peer runtimes
// (forkjoin, latency, channels, steal, omp). A program of its own so that building `rtpar` builds
// no peer runtime; `rtpar bench` execs it (src/cli/bench.cpp). Maps errors to the exit statuses
// of src/core/exit_status.hpp, the same table as `rtpar`'s.
#include <cstdio>
#include <exception>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "cli/command_main.hpp"
#include "driver/bench_omp.hpp"
#include "driver/bench_steal.hpp"
#include "driver/commands.hpp"

int main(int argc, char** argv) try {
  using namespace rtpar::bench;
  // Named after argv[0], which `rtpar bench` sets to "<rtpar as invoked> bench": usage lines and
  // errors read as they did when the subcommands lived in `rtpar` itself.
  CLI::App app{"Benchmarks against peer runtimes (same run)"};
  app.require_subcommand(1);
  rtpar::cli::Commands commands;
  CLI::App* forkjoin = app.add_subcommand(
      "forkjoin", "Fork/join cost of rtpar teams vs libgomp, LLVM libomp and oneTBB");
  commands.emplace_back(forkjoin, add_bench_forkjoin(*forkjoin));
  CLI::App* latency = app.add_subcommand(
      "latency", "Scheduling (preemption) and barrier latency (RT-OpenMP §VI-B)");
  commands.emplace_back(latency, add_bench_latency(*latency));
  CLI::App* channels = app.add_subcommand(
      "channels", "Channel response time and failed reads (OpenMP-RT Fig. 3 and Fig. 4)");
  commands.emplace_back(channels, add_bench_channels(*channels));
  CLI::App* steal = app.add_subcommand(
      "steal", "Work stealing vs oneTBB, libgomp, LLVM libomp: fib, UTS, matmul, heat");
  commands.emplace_back(steal, add_bench_steal(*steal));
  CLI::App* omp = app.add_subcommand(
      "omp", "OpenMP programs (gcc -fopenmp) on rtpar's libgomp.so.1 vs libgomp and LLVM libomp");
  commands.emplace_back(omp, add_bench_omp(*omp));

  CLI::App* wcet = app.add_subcommand(
      "wcet", "WCETs of the BOTS/EPCC task kernels, sequential and 2 threads (OpenMP-RT Table 1)");
  commands.emplace_back(wcet, add_bench_wcet(*wcet));

  CLI::App* planners = app.add_subcommand(
      "planners", "Planning time of many task sets, in process (sets/s, per-set p50/p99/max)");
  commands.emplace_back(planners, add_bench_planners(*planners));

  return rtpar::cli::run_commands(app, commands, argc, argv);
} catch (const std::exception& e) {
  // Building the command line itself failed (out of memory, say): still no uncaught exception.
  std::fprintf(stderr, "rtpar: internal error: %s\n", e.what());
  return rtpar::kExitInternal;
}
