// options.hpp — the command line every bench program accepts (the orchestrator passes it).
//
//   --threads N  --iters I  [--warmup W]  [--fifo]  [--priority P]  [--periodic-releases R]
//   [--period-ns T]  [--cpus C0,C1,...]  [--samples DIR]  [--name RUNTIME]
//
// A hand-rolled parser: the programs must build with clang and without the project's CLI11.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace rtpar_bench {

// Options configures one bench program run.
struct Options {
  int threads = 2;               // team size including the master
  std::int64_t iters = 100'000;  // timed back-to-back regions per construct (0 = skip)
  std::int64_t warmup = -1;      // untimed regions first; -1 = iters/20 in [100, 5000]
  bool fifo = false;             // measuring threads at SCHED_FIFO `priority`
  int priority = 50;
  std::int64_t periodic_releases = 2000;  // periodic variant: releases (0 = skip it)
  std::int64_t period_ns = 1'000'000;     // periodic variant: release period
  std::vector<int> cpus;                  // rank r runs on cpus[r]; empty = first allowed CPUs
  std::string samples_dir;                // non-empty: dump raw samples as CSV here
  std::string name;                       // runtime name in the results ("" = program default)

  // warmup_regions is the number of untimed regions run before each timed loop.
  [[nodiscard]] std::int64_t warmup_regions() const {
    if (warmup >= 0) return warmup;
    const std::int64_t w = iters / 20;
    return w < 100 ? 100 : (w > 5000 ? 5000 : w);
  }
};

// kExitBadArgs and kExitEnvironment are the programs' exit statuses besides 0 (the orchestrator
// reports them): bad command line, and the kernel refusing a placement.
inline constexpr int kExitBadArgs = 2;
inline constexpr int kExitEnvironment = 3;

// parse_options parses argv; on a bad argument it prints usage to stderr and exits kExitBadArgs.
inline Options parse_options(int argc, char** argv) {
  Options o;
  auto fail = [&](const std::string& why) {
    std::fprintf(
        stderr,
        "%s: %s\nusage: %s --threads N --iters I [--warmup W] [--fifo] [--priority P] "
        "[--periodic-releases R] [--period-ns T] [--cpus LIST] [--samples DIR] [--name RUNTIME]\n",
        argv[0], why.c_str(), argv[0]);
    std::exit(kExitBadArgs);
  };
  auto integer = [&](int& i, std::int64_t lo, std::int64_t hi) -> std::int64_t {
    if (i + 1 >= argc) fail(std::string(argv[i]) + " needs a value");
    char* end = nullptr;
    const long long v = std::strtoll(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || v < lo || v > hi) {
      fail(std::string(argv[i]) + ": bad value '" + argv[i + 1] + "'");
    }
    ++i;
    return v;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--threads") {
      o.threads = static_cast<int>(integer(i, 2, 64));
    } else if (a == "--iters") {
      o.iters = integer(i, 0, 100'000'000);
    } else if (a == "--warmup") {
      o.warmup = integer(i, 0, 100'000'000);
    } else if (a == "--fifo") {
      o.fifo = true;
    } else if (a == "--priority") {
      o.priority = static_cast<int>(integer(i, 1, 98));
    } else if (a == "--periodic-releases") {
      o.periodic_releases = integer(i, 0, 10'000'000);
    } else if (a == "--period-ns") {
      o.period_ns = integer(i, 10'000, 10'000'000'000);
    } else if (a == "--cpus" && i + 1 < argc) {
      o.cpus.clear();
      for (const char* p = argv[++i]; *p != '\0';) {
        char* end = nullptr;
        const long c = std::strtol(p, &end, 10);
        if (end == p || c < 0 || c > 4095 || (*end != ',' && *end != '\0')) fail("bad --cpus");
        o.cpus.push_back(static_cast<int>(c));
        p = *end == ',' ? end + 1 : end;
      }
    } else if ((a == "--samples" || a == "--name") && i + 1 < argc) {
      (a == "--samples" ? o.samples_dir : o.name) = argv[++i];
    } else {
      fail("unknown or incomplete argument '" + std::string(a) + "'");
    }
  }
  if (!o.cpus.empty() && static_cast<int>(o.cpus.size()) < o.threads) {
    fail("--cpus names fewer CPUs than --threads");
  }
  return o;
}

// measuring_cpus is where rank r runs: --cpus if given (the orchestrator always passes it,
// computed before any runtime could narrow this process's affinity — libgomp binds the initial
// thread at load time when OMP_PROC_BIND is set), else the first allowed CPUs. Returns fewer
// than o.threads entries if there are not enough.
inline std::vector<int> measuring_cpus(const Options& o, const std::vector<int>& allowed) {
  const std::vector<int>& from = o.cpus.empty() ? allowed : o.cpus;
  const std::size_t n = std::min(from.size(), static_cast<std::size_t>(o.threads));
  return std::vector<int>(from.begin(), from.begin() + static_cast<std::ptrdiff_t>(n));
}

}  // namespace rtpar_bench
