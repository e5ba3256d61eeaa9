// bench_steal.cpp — `rtpar bench steal`: rtpar's work-stealing runtime against oneTBB, libgomp and
// LLVM libomp on fib, UTS, matmul and heat, in the same run (docs/bench_steal.md).
//
// Every (variant, benchmark, threads, runtime) combination runs in its own process
// (bench/programs/steal_*.cpp), so the peers' runtimes are never loaded into this one and each
// row's ru_maxrss is that combination's alone. This file finds the programs, runs them one at a
// time with the right environment — for the multiprogrammed variant under the interference threads
// of bench_steal_interference.hpp — checks that all programs computed the same result for a kernel,
// and prints the JSON rows or the table. A wrong result is an error (exit 4), never a number.
#include "driver/bench_steal.hpp"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "common/program_files.hpp"
#include "common/steal.hpp"
#include "driver/bench_steal_interference.hpp"
#include "platform/child_process.hpp"  // shared with `rtpar experiment` bench studies
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

namespace rtpar::bench {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// programs maps a runtime name to its program's file name.
const std::map<std::string, std::string>& programs() {
  static const std::map<std::string, std::string> m{{"rtpar", "rtpar-bench-steal-rtpar"},
                                                    {"libgomp", "rtpar-bench-steal-gomp"},
                                                    {"libomp", "rtpar-bench-steal-libomp"},
                                                    {"tbb", "rtpar-bench-steal-tbb"}};
  return m;
}

// kRtwsBenches are the RTWS §IV kernels (docs/bench_steal.md "RTWS §IV kernels").
const std::set<std::string> kRtwsBenches{"sync1", "sync2", "sync3", "cholesky", "lu"};

// bad builds the InputError of a command-line option.
InputError bad(const char* field, const std::string& why) {
  return InputError(SourceLocation{"<command line>", 0, 0}, field, why);
}

// measuring_cpus lists the first max(--threads) CPUs this process may use: worker r runs on the
// r-th, and the multiprogrammed variant puts one interference thread on each.
std::vector<int> measuring_cpus(const StealBenchOptions& o) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  const int allowed = sched_getaffinity(0, sizeof(mask), &mask) == 0 ? CPU_COUNT(&mask) : 0;
  const int most = *std::max_element(o.threads.begin(), o.threads.end());
  for (int t : o.threads) {
    if (t < 1 || t > 64 || t > allowed) {
      throw bad("--threads", fmt::format("{}: must be in 1..64 and at most the {} CPUs this "
                                         "process may use",
                                         t, allowed));
    }
  }
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE && static_cast<int>(cpus.size()) < most; ++c) {
    if (CPU_ISSET(c, &mask)) cpus.push_back(c);
  }
  return cpus;
}

// validate checks the remaining options and returns the interference period.
Duration validate(const StealBenchOptions& o) {
  if (o.reps < 1) throw bad("--reps", "must be >= 1");
  if (o.fib_n < 0 || o.fib_n > 45) throw bad("--fib-n", "must be in 0..45");
  if (o.mp_fib_n < 0 || o.mp_fib_n > 45) throw bad("--mp-fib-n", "must be in 0..45");
  if (o.matmul_n < 8 || o.matmul_n > 2048) throw bad("--matmul-n", "must be in 8..2048");
  if (o.fft_n < 2 || o.fft_n > (1 << 24) || (o.fft_n & (o.fft_n - 1)) != 0) {
    throw bad("--fft-n", "must be a power of two in 2..16777216");
  }
  if (o.priority < 1 || o.priority > 97) throw bad("--priority", "must be in 1..97");
  if (o.mp_priority <= o.priority || o.mp_priority > 98) {
    throw bad("--mp-priority", "must be above --priority and at most 98");
  }
  if (!(o.mp_util > 0.0 && o.mp_util < 0.9)) throw bad("--mp-util", "must be in (0, 0.9)");
  if (!(o.rest_ratio >= 0.0 && o.rest_ratio <= 100.0)) {
    throw bad("--rest-ratio", "must be in 0..100");
  }
  if (o.heat_n < 3 || o.heat_n > 8192) throw bad("--heat-n", "must be in 3..8192");
  if (o.heat_steps < 1) throw bad("--heat-steps", "must be >= 1");
  for (const auto& [flag, n, b] : {std::tuple{"--chol-n", o.rtws.chol_n, o.rtws.chol_block},
                                   std::tuple{"--lu-n", o.rtws.lu_n, o.rtws.lu_block}}) {
    if (n < 1 || n > 8192 || b < 1 || b > 1024 || b > n) {
      throw bad(flag, "n must be in 1..8192 and its block in 1..min(n, 1024)");
    }
  }
  if (o.time_limit_s < 0) throw bad("--time-limit", "must be >= 0 (0 = no limit)");
  if (o.timeout_s < 1) throw bad("--timeout", "must be >= 1");
  Duration period{};
  try {
    period = parse_duration(o.mp_period);
  } catch (const std::invalid_argument& e) {
    throw bad("--mp-period", "'" + o.mp_period + "': " + e.what());
  }
  if (period < std::chrono::microseconds(100)) throw bad("--mp-period", "must be >= 100us");
  if (!o.samples.empty()) {
    std::error_code ec;
    fs::create_directories(o.samples, ec);
    if (ec || access(o.samples.c_str(), W_OK) != 0) {
      throw bad("--samples", "cannot create or write '" + o.samples + "'");
    }
  }
  return period;
}

// sizes_for gives the kernel parameters of a variant (docs/bench_steal.md, "Sizes").
StealSizes sizes_for(const StealBenchOptions& o, bool multiprogrammed) {
  StealSizes s;
  s.fib_n = multiprogrammed ? o.mp_fib_n : o.fib_n;
  if (multiprogrammed) s.uts_seed = o.mp_uts_seed;
  s.matmul_n = o.matmul_n;
  s.heat_n = o.heat_n;
  s.heat_steps = o.heat_steps;
  s.sync_seed = o.rtws.sync_seed;
  s.chol_n = o.rtws.chol_n;
  s.chol_block = o.rtws.chol_block;
  s.lu_n = o.rtws.lu_n;
  s.lu_block = o.rtws.lu_block;
  s.fft_n = o.quick ? 4096 : o.fft_n;
  if (o.quick) {
    s.sync_div = 100;  // RTWS §IV-A's node counts / 100: a few ms per task
    s.chol_n = std::min(s.chol_n, 96);
    s.chol_block = std::min(s.chol_block, 16);
    s.lu_n = std::min(s.lu_n, 96);
    s.lu_block = std::min(s.lu_block, 16);
    s.uts_seed = 0;  // b0=140, seed 0: 4,317 nodes, depth 24
    s.heat_n = 64;
    s.heat_steps = 10;
  }
  return s;
}

// Combination is one program run.
struct Combination {
  std::string variant, bench, runtime;
  int threads = 1;
};

// program_args is the command line of one program run (bench/common/steal_options.hpp).
std::vector<std::string> program_args(const StealBenchOptions& o, const Combination& c,
                                      const std::string& cpus, const StealSizes& s) {
  const bool mp = c.variant == "multiprogrammed";
  std::vector<std::string> a{"--bench",   c.bench,
                             "--threads", std::to_string(c.threads),
                             "--cpus",    cpus,
                             "--reps",    std::to_string(o.reps),
                             "--warmup",  std::to_string(o.warmup),
                             "--variant", c.variant};
  auto add = [&](const char* flag, std::string v) {
    a.emplace_back(flag);
    a.push_back(std::move(v));
  };
  add("--time-limit-ms", std::to_string(static_cast<std::int64_t>(o.time_limit_s * 1000.0)));
  add("--fib-n", std::to_string(s.fib_n));
  add("--uts-b0", std::to_string(s.uts_b0));
  add("--uts-m", std::to_string(s.uts_m));
  add("--uts-q", fmt::format("{}", s.uts_q));
  add("--uts-seed", std::to_string(s.uts_seed));
  add("--matmul-n", std::to_string(s.matmul_n));
  add("--fft-n", std::to_string(s.fft_n));
  add("--heat-n", std::to_string(s.heat_n));
  add("--heat-steps", std::to_string(s.heat_steps));
  add("--sync-seed", std::to_string(s.sync_seed));
  add("--sync-div", std::to_string(s.sync_div));
  add("--chol-n", std::to_string(s.chol_n));
  add("--chol-block", std::to_string(s.chol_block));
  add("--lu-n", std::to_string(s.lu_n));
  add("--lu-block", std::to_string(s.lu_block));
  if (mp || o.fifo) {
    a.emplace_back("--fifo");
    add("--priority", std::to_string(o.priority));
  }
  if (mp || o.fifo) add("--rest-ratio", fmt::format("{}", o.rest_ratio));
  if (!o.samples.empty()) add("--samples", o.samples);
  if (o.corrupt) a.emplace_back("--corrupt");
  return a;
}

// program_env is the environment a runtime's program needs: the OpenMP ones get N threads, one
// per core, bound; their wait policy is the runtime's default, except that libomp's 200 ms
// spin-before-sleep becomes 1 ms whenever the benchmark runs at SCHED_FIFO (multiprogrammed, or
// --fifo): its idle workers would otherwise spin through the rests between repetitions into RT
// throttling.
std::vector<std::string> program_env(const StealBenchOptions& o, const Combination& c) {
  if (c.runtime != "libgomp" && c.runtime != "libomp") return {};
  std::vector<std::string> env{"OMP_NUM_THREADS=" + std::to_string(c.threads), "OMP_PROC_BIND=true",
                               "OMP_PLACES=cores"};
  const bool fifo = o.fifo || c.variant == "multiprogrammed";
  if (c.runtime == "libomp" && fifo) env.emplace_back("KMP_BLOCKTIME=1");
  return env;
}

// Outcome tallies the failures by kind (they decide the exit status).
struct Outcome {
  int wrong = 0, refused = 0, failed = 0;
  std::vector<std::string> problems;
};

// run_one runs one combination and appends its row to rows (or records why there is none).
void run_one(const StealBenchOptions& o, const Combination& c, const fs::path& program,
             const std::vector<int>& cpus, const std::string& cpu_list, Duration period, Json& rows,
             Outcome& outcome) {
  const bool mp = c.variant == "multiprogrammed";
  const StealSizes sizes = sizes_for(o, mp);
  const auto args = program_args(o, c, cpu_list, sizes);
  const std::int64_t steal_before = rtpar_bench::steal_ns(cpus);
  std::unique_ptr<Interference> interference;
  if (mp) {
    InterferenceConfig ic;
    ic.cpus = cpus;
    ic.priority = o.mp_priority;
    ic.period_ns = period.count();
    ic.utilization = o.mp_util;
    try {
      interference = std::make_unique<Interference>(ic);
    } catch (const std::runtime_error& e) {
      outcome.problems.push_back(c.bench + "/" + c.runtime + ": interference: " + e.what());
      ++outcome.refused;
      return;
    }
  }
  const auto child =
      rtpar::platform::run_child(program.string(), args, program_env(o, c), o.timeout_s);
  InterferenceStats is;
  if (interference) is = interference->stop();
  const std::int64_t steal = rtpar_bench::steal_ns(cpus) - steal_before;
  const std::string label = fmt::format("{} {} t{} {}", c.bench, c.variant, c.threads, c.runtime);
  std::string why = child.failure(o.timeout_s);
  const int status = WIFEXITED(child.status) ? WEXITSTATUS(child.status) : -1;
  if (!why.empty()) {
    if (status == kExitWrongResult) {
      ++outcome.wrong;
      why = "WRONG RESULT (see the program's message above)";
    } else if (status == kExitEnvironment) {
      ++outcome.refused;
    } else {
      ++outcome.failed;
    }
    outcome.problems.push_back(label + ": " + why);
    fmt::print(stderr, "rtpar bench steal: {}: {}\n", label, why);
    return;
  }
  const Json doc = Json::parse(child.out, nullptr, false);
  if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array() ||
      doc["results"].size() != 1 || !doc["results"][0].is_object() ||
      !doc["results"][0].value("speedup", Json()).is_number() ||
      !doc["results"][0].value("result", Json()).is_string() ||
      !doc["results"][0].value("size", Json()).is_string()) {
    ++outcome.failed;
    outcome.problems.push_back(label + ": printed no valid results JSON");
    return;
  }
  Json row = doc["results"][0];
  row["speedup"] = row["speedup"].get<double>();  // always a JSON float, even when integral
  row["host_steal_ns"] = steal;
  if (mp) {
    row["interference_util"] = is.utilization;
    row["interference_max_late_ns"] = is.max_late_ns;
    row["throttle_stalls"] = is.stalls;
    if (is.stalls > 0) {
      outcome.problems.push_back(fmt::format(
          "{}: {} interference releases were >= {} ms late: RT throttling stopped the CPU during "
          "the run (its times include the stall)",
          label, is.stalls, is.stall_threshold_ns / 1'000'000));
    }
  }
  rows.push_back(std::move(row));
}

// check_agreement verifies that every program computed the same result for each kernel and size
// (each program verified its parallel results against its own serial run; this compares the
// serial runs of different compilers and runtimes). Returns the disagreements.
std::vector<std::string> check_agreement(const Json& rows) {
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> seen;
  std::vector<std::string> out;
  for (const Json& r : rows) {
    const std::pair<std::string, std::string> key{r["benchmark"], r["size"]};
    const std::string result = r["result"], who = r["runtime"];
    auto [it, fresh] = seen.emplace(key, std::pair{result, who});
    if (!fresh && it->second.first != result) {
      out.push_back(fmt::format("{} ({}): {} computed {}, {} computed {}", key.first, key.second,
                                it->second.second, it->second.first, who, result));
    }
  }
  return out;
}

}  // namespace

Command add_bench_steal(CLI::App& app) {
  auto o = std::make_shared<StealBenchOptions>();
  app.add_option("--bench", o->benches,
                 "Subset of fib,uts,matmul,heat, fft (not in the default set) and the RTWS §IV "
                 "kernels sync1,sync2,sync3,cholesky,lu")
      ->delimiter(',')
      ->check(CLI::IsMember(
          {"fib", "uts", "matmul", "heat", "fft", "sync1", "sync2", "sync3", "cholesky", "lu"}));
  app.add_option("--threads", o->threads, "Worker counts to run (each a separate program run)")
      ->delimiter(',');
  app.add_option("--runtimes", o->runtimes, "Subset of rtpar,libgomp,libomp,tbb")
      ->delimiter(',')
      ->check(CLI::IsMember({"rtpar", "libgomp", "libomp", "tbb"}));
  app.add_option("--variants", o->variants, "Subset of isolated,multiprogrammed")
      ->delimiter(',')
      ->check(CLI::IsMember({"isolated", "multiprogrammed"}));
  CLI::Option* reps = app.add_option("--reps", o->reps,
                                     "Timed repetitions per combination (serial and parallel each)")
                          ->capture_default_str();
  CLI::Option* fib_n =
      app.add_option("--fib-n", o->fib_n, "fib(N) of the isolated variant")->capture_default_str();
  CLI::Option* mp_fib_n = app.add_option("--mp-fib-n", o->mp_fib_n,
                                         "fib(N) of the multiprogrammed variant (shorter runs: RT "
                                         "throttling)")
                              ->capture_default_str();
  CLI::Option* matmul_n = app.add_option("--matmul-n", o->matmul_n, "matmul: n of the n×n matrices")
                              ->capture_default_str();
  app.add_option("--heat-n", o->heat_n, "heat: n of the n×n grid")->capture_default_str();
  app.add_option("--heat-steps", o->heat_steps, "heat: sweeps")->capture_default_str();
  app.add_option("--sync-seed", o->rtws.sync_seed, "sync1..3: seed of the drawn task (RTWS §IV-A)")
      ->capture_default_str();
  app.add_option("--chol-n", o->rtws.chol_n, "cholesky: n (RTWS §IV-A: 3000)")
      ->capture_default_str();
  app.add_option("--chol-block", o->rtws.chol_block, "cholesky: base case (tile) size")
      ->capture_default_str();
  app.add_option("--lu-n", o->rtws.lu_n, "lu: n (RTWS §IV-A: 2048)")->capture_default_str();
  app.add_option("--lu-block", o->rtws.lu_block, "lu: base case (tile) size")
      ->capture_default_str();
  app.add_option("--fft-n", o->fft_n, "fft: points (a power of two)")->capture_default_str();
  app.add_option("--mp-uts-seed", o->mp_uts_seed, "UTS tree seed of the multiprogrammed variant")
      ->capture_default_str();
  app.add_flag("--quick", o->quick, "Tiny sizes and 5 repetitions (CI smoke runs)");
  app.add_flag("--json", o->json, "Print the results as JSON on stdout");
  app.add_flag("--fifo", o->fifo, "Isolated variant at SCHED_FIFO --priority too");
  app.add_option("--priority", o->priority, "SCHED_FIFO priority of the benchmark threads")
      ->capture_default_str();
  app.add_option("--mp-priority", o->mp_priority, "SCHED_FIFO priority of the interference threads")
      ->capture_default_str();
  app.add_option("--mp-util", o->mp_util, "Interference: busy share of each period")
      ->capture_default_str();
  app.add_option("--mp-period", o->mp_period, "Interference: release period")
      ->capture_default_str();
  app.add_option("--rest-ratio", o->rest_ratio,
                 "Multiprogrammed: sleep this × each repetition after it (RT budget)")
      ->capture_default_str();
  app.add_option("--time-limit", o->time_limit_s,
                 "Wall seconds per combination after which no repetition starts (0 = none)")
      ->capture_default_str();
  app.add_option("--timeout", o->timeout_s, "Seconds before a bench program is killed")
      ->capture_default_str();
  app.add_option("--samples", o->samples, "Write per-repetition ns as CSV files into DIR");
  app.add_flag("--corrupt-for-test", o->corrupt, "Test hook: falsify one result per program")
      ->group("");
  return [o, reps, fib_n, mp_fib_n, matmul_n]() {
    if (o->quick) {
      if (reps->count() == 0) o->reps = 5;
      if (matmul_n->count() == 0) o->matmul_n = 64;
      if (fib_n->count() == 0) o->fib_n = 20;
      if (mp_fib_n->count() == 0) o->mp_fib_n = 20;
      o->warmup = 1;
    }
    const std::vector<int> cpus = measuring_cpus(*o);
    std::string cpu_list;
    for (int c : cpus) cpu_list += (cpu_list.empty() ? "" : ",") + std::to_string(c);
    const Duration period = validate(*o);
    const bool want_mp =
        std::find(o->variants.begin(), o->variants.end(), "multiprogrammed") != o->variants.end();
    if (want_mp || o->fifo) {
      if (std::string why = probe_fifo(o->mp_priority); !why.empty()) {
        throw EnvironmentError(
            "SCHED_FIFO refused (" + why + "): the multiprogrammed variant needs it",
            "run as root or with CAP_SYS_NICE, or pass --variants isolated (and no --fifo)");
      }
    }

    // Locate the programs; a missing one is skipped with a message, not an error.
    std::map<std::string, fs::path> found;
    for (const std::string& rt : o->runtimes) {
      const std::string& name = programs().at(rt);
      if (auto path = rtpar_bench::find_program(name)) {
        found[rt] = *path;
        continue;
      }
      std::string where;
      for (const auto& d : rtpar_bench::program_dirs()) where += " " + d.string();
      fmt::print(stderr, "rtpar bench steal: skipping {}: {} not found in{}{}\n", rt, name, where,
                 rt == "rtpar" ? "" : rtpar_bench::kPeerMissingHint);
    }

    Json rows = Json::array();
    Outcome outcome;
    const bool progress = !o->json && isatty(STDERR_FILENO);
    std::vector<Combination> combos;
    for (const std::string& v : {std::string("isolated"), std::string("multiprogrammed")}) {
      if (std::find(o->variants.begin(), o->variants.end(), v) == o->variants.end()) continue;
      for (const std::string& b : o->benches) {
        for (int t : o->threads) {
          for (const std::string& rt : o->runtimes) {
            // oneTBB has no RTWS §IV kernels (the paper compares Cilk Plus and OpenMP).
            if (rt == "tbb" && kRtwsBenches.count(b) > 0) continue;
            if (found.count(rt)) combos.push_back({v, b, rt, t});
          }
        }
      }
    }
    for (std::size_t i = 0; i < combos.size(); ++i) {
      const Combination& c = combos[i];
      if (progress) {
        fmt::print(stderr, "[{}/{}] {} {} t{} {}\n", i + 1, combos.size(), c.bench, c.variant,
                   c.threads, c.runtime);
      }
      run_one(*o, c, found[c.runtime], cpus, cpu_list, period, rows, outcome);
    }
    for (const std::string& d : check_agreement(rows)) {
      ++outcome.wrong;
      outcome.problems.push_back("programs disagree: " + d);
      fmt::print(stderr, "rtpar bench steal: programs disagree: {}\n", d);
    }
    if (rows.empty() && outcome.wrong == 0) {
      throw EnvironmentError("no bench program produced results",
                             outcome.refused > 0
                                 ? "SCHED_FIFO needs root or CAP_SYS_NICE; or --variants isolated"
                                 : "build the bench/ programs (they install to libexec/rtpar)");
    }
    if (o->json) {
      fmt::print("{}\n", Json{{"results", rows}}.dump(2));
    } else {
      render_steal_table(*o, rows, outcome.problems);
    }
    if (outcome.wrong > 0) {
      fmt::print(stderr, "rtpar bench steal: {} wrong result(s): see above\n", outcome.wrong);
      return kExitWrongResult;
    }
    if (outcome.refused > 0) {
      fmt::print(stderr,
                 "rtpar: environment refused SCHED_FIFO or a CPU for {} program run(s)\nhint: run "
                 "as root or with CAP_SYS_NICE, or pass --variants isolated\n",
                 outcome.refused);
      return kExitEnvironment;
    }
    return outcome.failed > 0 ? kExitFail : kExitOk;
  };
}

}  // namespace rtpar::bench
