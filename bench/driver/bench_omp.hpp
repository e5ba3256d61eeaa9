// bench_omp.hpp — `rtpar bench omp`: unchanged `gcc -fopenmp` programs (bench/omp/*.c) run against
// stock libgomp, LLVM libomp and rtpar's libgomp.so.1 in the same run, and their `clang -fopenmp`
// builds against LLVM's libomp.so.5 and rtpar's (the clang rows; docs/bench-omp.md).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/commands.hpp"

namespace rtpar::bench {

// add_bench_omp registers the options of `rtpar bench omp` (bench_omp.cpp).
Command add_bench_omp(CLI::App& app);

// OmpBenchOptions are the command-line options.
struct OmpBenchOptions {
  int threads = 2;
  std::vector<std::string> benches{"sync", "sched", "task", "apps", "periodic"};
  std::vector<std::string> runtimes{"rtpar", "libgomp", "libomp", "clang+rtpar", "clang+libomp"};
  int rounds = 2;           // sync/sched/task/apps reps split over this many runs of each program
  int sync_reps = 200;      // EPCC outer repetitions (samples) per construct
  int sync_inner = 128;     // EPCC innerreps
  int sched_reps = 100;     //
  int sched_inner = 16;     //
  int sched_iters = 128;    // loop iterations per thread
  int task_reps = 5;        // repetitions of fib and nqueens
  int fib_n = 30;           //
  int queens_n = 10;        //
  int apps_reps = 10;       // repetitions of each application size (FJOS Fig. 5: 100)
  int apps_div = 1;         // every application's work divided by this (--quick: 16)
  double delay_ns = 100.0;  // EPCC delaytime
  std::int64_t releases = 2000;
  std::string period = "1ms";
  int priority = 50;  // periodic: SCHED_FIFO priority, 0 = SCHED_OTHER
  bool bind = true;   // OMP_PROC_BIND=true OMP_PLACES=cores for every runtime
  bool quick = false;
  bool json = false;
  bool raw = false;         // raw samples in the JSON rows
  std::string rtpar_lib;    // rtpar's libgomp.so.1 ("" = search)
  std::string libomp = "";  // LLVM libomp ("" = configure-time path)
  int timeout_s = 300;
};

// Json is the driver's JSON type: ordered, so rows keep the programs' key order.
using OmpJson = nlohmann::ordered_json;

// OmpPool gathers one row (runtime, bench, construct) over every run of its program: the first
// run's row (for its extra keys) and every run's samples.
struct OmpPool {
  std::string runtime, bench, construct;
  OmpJson first;
  std::vector<double> samples;
  std::vector<double> serial;  // apps: the serial twin's samples of every run
  std::int64_t overruns = 0, stalls = 0, max_region_ns = 0;
  int runs = 0;
  bool ok = true;  // task and apps: every run verified its result
};

// omp_row is the final row of a pool: nearest-rank p50/p99/max (and mean, min, count) over the
// pooled samples, the program's extra keys, the periodic counters summed, and for apps the serial
// twin's p50 and mean with the speedups serial/parallel of each; raw adds the samples.
OmpJson omp_row(const OmpPool& p, bool raw);

// omp_ratios lists rtpar/libgomp and rtpar/libomp of p50, p99 and max for every construct that
// has an rtpar row (the periodic rows compare rtpar with each peer under the same policy); for a
// clang+rtpar row, over_libomp_* is clang+rtpar/clang+libomp and over_libgomp_* is null.
OmpJson omp_ratios(const OmpJson& rows);

// omp_targets evaluates the goals (issue 13, Targets) on the rows: syncbench p50 <= 0.7x
// libgomp and p99 <= libgomp; fib(30) <= 0.25x libgomp and <= libomp; periodic stalls = 0; and
// issue 37's for the clang rows: syncbench p50 and fib(30) <= 0.7x and 0.25x clang+libomp.
OmpJson omp_targets(const OmpJson& rows);

// render_omp_table prints the rows with ratios, then the targets (reported, never asserted).
void render_omp_table(const OmpBenchOptions& o, const OmpJson& rows, const OmpJson& ratios,
                      const OmpJson& targets, const std::map<std::string, std::string>& libraries);

}  // namespace rtpar::bench
