// bench_steal.hpp — `rtpar bench steal`: rtpar's work-stealing runtime against oneTBB, libgomp
// and LLVM libomp on fib, UTS, matmul and heat, isolated and multiprogrammed (docs/bench_steal.md).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/commands.hpp"

namespace rtpar::bench {

// add_bench_steal registers the options of `rtpar bench steal` (bench_steal.cpp).
Command add_bench_steal(CLI::App& app);

// StealSizes are the kernel parameters of one variant (passed to every program).
struct StealSizes {
  int fib_n = 35;
  // UTS: P3LS3 §5.1's tree (b0 = 140, m = 8, q = 0.124875), SHA-1 rule, seed 146: 72,197 nodes
  // (src/kernels/uts_tree.hpp says why that seed).
  int uts_b0 = 140;
  int uts_m = 8;
  double uts_q = 0.124875;
  std::int64_t uts_seed = 146;
  int matmul_n = 256;
  int fft_n = 1 << 16;  // fft points (steal_fft.hpp)
  int heat_n = 256;
  int heat_steps = 100;
  std::int64_t sync_seed = 1;          // RTWS §IV-A synchronous task drawn (sync1..3)
  int sync_div = 1;                    // node counts divided by this (--quick: 100)
  int chol_n = 1024, chol_block = 32;  // RTWS §IV-A: 3000 / 32 (Fig. 7: 1000 / 4)
  int lu_n = 1024, lu_block = 32;      // RTWS §IV-A: 2048 / 32
};

// StealBenchOptions are the command-line options.
struct StealBenchOptions {
  std::vector<std::string> benches{"fib", "uts", "matmul", "heat"};
  std::vector<int> threads{1, 2};
  std::vector<std::string> runtimes{"rtpar", "libgomp", "libomp", "tbb"};
  std::vector<std::string> variants{"isolated", "multiprogrammed"};
  int reps = 50;
  int warmup = 2;
  int fib_n = 35;
  int mp_fib_n = 27;
  int matmul_n = 256;                  // matmul's n (P3LS3 §5.2 used 128)
  int heat_n = 256, heat_steps = 100;  // heat's grid and sweeps (isolated and multiprogrammed)
  StealSizes rtws;                     // the RTWS §IV kernels' sizes (sync_seed, chol_*, lu_*)
  int fft_n = 1 << 16;                 // fft's points, a power of two (P3LS3 §5.1 gives no size)
  std::int64_t mp_uts_seed = 146;      // the paper runs one tree in both environments (P3LS3 §5.1)
  bool quick = false;
  bool json = false;
  bool fifo = false;     // isolated variant at SCHED_FIFO too
  int priority = 10;     // benchmark threads' SCHED_FIFO priority
  int mp_priority = 20;  // interference threads' SCHED_FIFO priority
  double mp_util = 0.25;
  std::string mp_period = "2ms";
  double rest_ratio = 1.0;
  double time_limit_s = 20.0;
  int timeout_s = 300;
  std::string samples;
  bool corrupt = false;  // test hook: every program falsifies a result (must end in exit 4)
};

// StealTarget is one of the goals evaluated on the merged rows.
struct StealTarget {
  std::string what;
  double value = 0.0;
  std::string limit;  // e.g. ">= 8.00"
  bool met = false;
};

// steal_targets evaluates the goals (rtpar issue 4, part 5) on the rows: fib/uts rtpar
// ≥ 8× faster than oneTBB (p50), matmul/heat rtpar ≤ 1.05× the best peer (p50), and rtpar's
// p99/p50 spread no wider than oneTBB's; per (variant, benchmark, threads). Missing rows skip.
std::vector<StealTarget> steal_targets(const nlohmann::ordered_json& rows);

// render_steal_table prints the human-readable results: per (variant, benchmark, threads) one
// line per runtime with ratios against the best peer, then the targets.
void render_steal_table(const StealBenchOptions& o, const nlohmann::ordered_json& rows,
                        const std::vector<std::string>& problems);

}  // namespace rtpar::bench
