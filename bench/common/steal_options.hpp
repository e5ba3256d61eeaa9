// steal_options.hpp — the command line of the `rtpar bench steal` programs
// (bench/programs/steal_*.cpp).
//
//   --bench fib|uts|matmul|heat|fft  --threads N  [--cpus C0,C1,...]  [--reps R]  [--warmup W]
//   [--time-limit-ms T]  [--fib-n N]  [--uts-b0 B --uts-m M --uts-q Q --uts-seed S]
//   [--matmul-n N]  [--heat-n N --heat-steps S]  [--fft-n N]  [--fifo --priority P]  [--rest-ratio X]
//   [--variant NAME]  [--samples DIR]  [--corrupt]
//   RTWS §IV (--bench sync1|sync2|sync3|cholesky|lu): [--sync-seed S] [--sync-div D]
//   [--chol-n N --chol-block B] [--lu-n N --lu-block B]
//
// One process runs one (benchmark, threads, variant) combination, so that its ru_maxrss is that
// combination's peak memory alone. A hand-rolled parser, like options.hpp: the programs build with
// clang and without the project's CLI11.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/options.hpp"  // kExitBadArgs, kExitEnvironment
#include "common/steal_kernels.hpp"

namespace rtpar_bench {

// kExitWrongResult is a steal program's exit status when a parallel result differs from the
// serial one: the run is wrong, and no number is printed for it (the status rtpar-bench itself
// then exits with: src/core/exit_status.hpp).
inline constexpr int kExitWrongResult = 4;

// StealOptions configures one steal program run.
struct StealOptions {
  std::string bench;               // fib, uts, matmul, heat or fft
  int threads = 1;                 // workers including the calling thread
  std::vector<int> cpus;           // worker r runs on cpus[r]; empty = first allowed CPUs
  int reps = 50;                   // timed repetitions (serial and parallel each)
  int warmup = 2;                  // untimed repetitions first (serial and parallel each)
  std::int64_t time_limit_ms = 0;  // stop adding repetitions after this much (0 = no limit)
  int fib_n = 35;
  UtsParams uts;
  int matmul_n = 256;
  int heat_n = 256;
  int heat_steps = 100;
  std::uint64_t sync_seed = 1;  // the synchronous task drawn (RTWS §IV-A)
  int sync_div = 1;             // node counts divided by this (1 = the paper's; --quick only)
  int chol_n = 1024;            // Cholesky n (RTWS §IV-A: 3000, Fig. 7: 1000)
  int chol_block = 32;          // Cholesky base case (RTWS §IV-A: 32, Fig. 7: 4)
  int lu_n = 1024;              // LU n (RTWS §IV-A: 2048)
  int lu_block = 32;            // LU base case (RTWS §IV-A: 32)
  int fft_n = 1 << 16;  // fft: points (a power of two)
  bool fifo = false;  // every benchmark thread at SCHED_FIFO `priority`
  int priority = 10;
  double rest_ratio = 0.0;           // sleep rest_ratio × (last repetition) after each one
  std::string variant = "isolated";  // copied into the row
  std::string samples_dir;           // non-empty: dump the per-repetition times as CSV here
  bool corrupt = false;              // test hook: falsify one parallel result (must exit 4)
};

// is_sync_bench says whether name is one of RTWS §IV-A's synchronous task types.
inline bool is_sync_bench(const std::string& name) {
  return name == "sync1" || name == "sync2" || name == "sync3";
}

// parse_steal_options parses argv; on a bad argument it prints usage and exits kExitBadArgs.
inline StealOptions parse_steal_options(int argc, char** argv) {
  StealOptions o;
  auto fail = [&](const std::string& why) {
    std::fprintf(stderr,
                 "%s: %s\nusage: %s --bench fib|uts|matmul|heat|fft|sync1|sync2|sync3|cholesky|lu --threads N [--cpus LIST] "
                 "[--reps R] [--warmup W] [--time-limit-ms T] [--fib-n N] [--uts-b0 B] "
                 "[--uts-m M] [--uts-q Q] [--uts-seed S] [--matmul-n N] [--heat-n N] [--fft-n N] "
                 "[--heat-steps S] [--fifo] [--priority P] [--rest-ratio X] [--variant NAME] "
                 "[--samples DIR] [--corrupt] [--sync-seed S] [--sync-div D] [--chol-n N] "
                 "[--chol-block B] [--lu-n N] [--lu-block B]\n",
                 argv[0], why.c_str(), argv[0]);
    std::exit(kExitBadArgs);
  };
  auto value = [&](int& i) -> const char* {
    if (i + 1 >= argc) fail(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  auto integer = [&](int& i, std::int64_t lo, std::int64_t hi) -> std::int64_t {
    const char* flag = argv[i];
    const char* s = value(i);
    char* end = nullptr;
    const long long v = std::strtoll(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) {
      fail(std::string(flag) + ": bad value '" + s + "'");
    }
    return v;
  };
  auto real = [&](int& i, double lo, double hi) -> double {
    const char* flag = argv[i];
    const char* s = value(i);
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= lo && v <= hi)) {
      fail(std::string(flag) + ": bad value '" + s + "'");
    }
    return v;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--bench") {
      o.bench = value(i);
      if (o.bench != "fib" && o.bench != "uts" && o.bench != "matmul" && o.bench != "heat" &&
          !is_sync_bench(o.bench) && o.bench != "cholesky" && o.bench != "lu" &&
          o.bench != "fft") {
        fail("--bench: unknown benchmark '" + o.bench + "'");
      }
    } else if (a == "--threads") {
      o.threads = static_cast<int>(integer(i, 1, 64));
    } else if (a == "--cpus") {
      o.cpus.clear();
      for (const char* p = value(i); *p != '\0';) {
        char* end = nullptr;
        const long c = std::strtol(p, &end, 10);
        if (end == p || c < 0 || c > 4095 || (*end != ',' && *end != '\0')) fail("bad --cpus");
        o.cpus.push_back(static_cast<int>(c));
        p = *end == ',' ? end + 1 : end;
      }
    } else if (a == "--reps") {
      o.reps = static_cast<int>(integer(i, 1, 1'000'000));
    } else if (a == "--warmup") {
      o.warmup = static_cast<int>(integer(i, 0, 1'000'000));
    } else if (a == "--time-limit-ms") {
      o.time_limit_ms = integer(i, 0, 86'400'000);
    } else if (a == "--fib-n") {
      o.fib_n = static_cast<int>(integer(i, 0, 60));
    } else if (a == "--uts-b0") {
      o.uts.b0 = static_cast<int>(integer(i, 0, 1'000'000));
    } else if (a == "--uts-m") {
      o.uts.m = static_cast<int>(integer(i, 0, 1'000));
    } else if (a == "--uts-q") {
      o.uts.q = real(i, 0.0, 1.0);
    } else if (a == "--uts-seed") {
      o.uts.seed = static_cast<std::uint32_t>(integer(i, 0, INT32_MAX));  // UTS seeds: 31 bits
    } else if (a == "--fft-n") {
      o.fft_n = static_cast<int>(integer(i, 2, 1 << 24));
      if (!fft_is_power_of_two(static_cast<std::uint64_t>(o.fft_n))) {
        fail("--fft-n: must be a power of two");
      }
    } else if (a == "--matmul-n") {
      o.matmul_n = static_cast<int>(integer(i, 1, 8192));
    } else if (a == "--heat-n") {
      o.heat_n = static_cast<int>(integer(i, 3, 8192));
    } else if (a == "--heat-steps") {
      o.heat_steps = static_cast<int>(integer(i, 1, 1'000'000));
    } else if (a == "--sync-seed") {
      o.sync_seed = static_cast<std::uint64_t>(integer(i, 0, INT64_MAX));
    } else if (a == "--sync-div") {
      o.sync_div = static_cast<int>(integer(i, 1, 1'000'000));
    } else if (a == "--chol-n") {
      o.chol_n = static_cast<int>(integer(i, 1, 8192));
    } else if (a == "--chol-block") {
      o.chol_block = static_cast<int>(integer(i, 1, 1024));
    } else if (a == "--lu-n") {
      o.lu_n = static_cast<int>(integer(i, 1, 8192));
    } else if (a == "--lu-block") {
      o.lu_block = static_cast<int>(integer(i, 1, 1024));
    } else if (a == "--fifo") {
      o.fifo = true;
    } else if (a == "--priority") {
      o.priority = static_cast<int>(integer(i, 1, 98));
    } else if (a == "--rest-ratio") {
      o.rest_ratio = real(i, 0.0, 100.0);
    } else if (a == "--variant") {
      o.variant = value(i);
    } else if (a == "--samples") {
      o.samples_dir = value(i);
    } else if (a == "--corrupt") {
      o.corrupt = true;
    } else {
      fail("unknown argument '" + std::string(a) + "'");
    }
  }
  if (o.bench.empty()) fail("--bench is required");
  if (!o.cpus.empty() && static_cast<int>(o.cpus.size()) < o.threads) {
    fail("--cpus names fewer CPUs than --threads");
  }
  return o;
}

// steal_cpus is where worker r runs: --cpus if given (the orchestrator always passes it), else
// the first allowed CPUs; fewer than o.threads entries if there are not enough.
inline std::vector<int> steal_cpus(const StealOptions& o, const std::vector<int>& allowed) {
  const std::vector<int>& from = o.cpus.empty() ? allowed : o.cpus;
  const std::size_t n = std::min(from.size(), static_cast<std::size_t>(o.threads));
  return std::vector<int>(from.begin(), from.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace rtpar_bench
