// bench_forkjoin.cpp — `rtpar bench forkjoin`: fork/join cost of rtpar teams against libgomp,
// LLVM libomp and oneTBB, measured in the same run (docs/bench.md).
//
// Every runtime runs in its own process (bench/programs/forkjoin_*.cpp): the peers' runtimes are
// never loaded into this one, and each starts from a clean scheduler state. This file finds the
// programs, runs them one at a time with the right environment — back-to-back constructs in
// interleaved rounds, the periodic variant whole — pools their samples, and prints the merged JSON
// or a table with same-run ratios and the targets (reported, never asserted: the exit
// status only says whether every program ran).
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "common/merged_rows.hpp"
#include "common/pool.hpp"
#include "common/program_files.hpp"
#include "common/rt_throttle.hpp"
#include "common/samples_csv.hpp"
#include "common/steal.hpp"
#include "core/table.hpp"
#include "driver/commands.hpp"
#include "platform/child_process.hpp"  // shared with `rtpar experiment` bench studies
#include "platform/cpu_latency.hpp"
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

namespace rtpar::bench {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using rtpar_bench::Key;
using rtpar_bench::ratio;
using rtpar_bench::row_index;

// ForkjoinOptions are the command-line options.
struct ForkjoinOptions {
  std::string threads_spec = "2";  // --threads: N or LO..HI
  int threads = 2;                 // the team size being measured (one of the spec's)
  std::int64_t iters = 100'000;
  bool fifo = false;
  int priority = 50;
  std::int64_t periodic_releases = 2000;
  std::string period = "1ms";
  int rounds = 10;
  std::string samples;
  bool json = false;
  std::vector<std::string> runtimes{"rtpar", "libgomp", "libomp", "tbb"};
  int timeout_s = 300;
  std::string cpu_latency = "off";   // --cpu-latency: a cap held for the whole bench, or off
  std::int64_t cpu_latency_us = -1;  // the cap held (µs); -1: none
};

// ProgramRun is one child process: the program file and the environment it needs.
struct ProgramRun {
  std::string program;
  std::vector<std::string> env;  // NAME=VALUE, replacing inherited NAME

  // label names the run in messages: the program and, for OpenMP, its wait policy.
  [[nodiscard]] std::string label() const {
    return env.empty() ? program : program + " " + env.front();
  }
};

// program_runs lists the child processes in result order. The OpenMP ones get the issue's
// environment: the wait policy under test, N threads, one thread per core, bound.
std::vector<ProgramRun> program_runs(const ForkjoinOptions& o) {
  const std::set<std::string> want(o.runtimes.begin(), o.runtimes.end());
  std::vector<ProgramRun> runs;
  if (want.count("rtpar")) runs.push_back({"rtpar-bench-rtpar", {}});
  for (const auto& [family, program] :
       {std::pair{"libgomp", "rtpar-bench-gomp"}, std::pair{"libomp", "rtpar-bench-libomp"}}) {
    if (!want.count(family)) continue;
    for (const char* policy : {"active", "passive"}) {
      runs.push_back({program,
                      {std::string("OMP_WAIT_POLICY=") + policy,
                       "OMP_NUM_THREADS=" + std::to_string(o.threads), "OMP_PROC_BIND=true",
                       "OMP_PLACES=cores"}});
    }
  }
  if (want.count("tbb")) runs.push_back({"rtpar-bench-tbb", {}});
  return runs;
}

// render_human prints the table: one row per (runtime, construct), ratios against libgomp-active
// of the same construct, and against the futex floor for the rows that sleep (block, passive,
// and the periodic variant, where every runtime but the active OpenMP ones sleeps between jobs);
// for periodic rows, releases that overran the period and RT-throttling stalls (rt_throttle.hpp).
void render_human(const ForkjoinOptions& o, int rounds, const Json& rows, const Json& goals,
                  const Json& drift) {
  const auto ix = row_index(rows);
  auto ns = [](const Json& v) { return fmt::format("{:.0f}", v.get<double>()); };
  auto x = [](std::optional<double> r) { return r ? fmt::format("{:.2f}x", *r) : "-"; };
  std::vector<std::vector<std::string>> t{{"construct", "runtime", "mean", "p50", "p99", "p99.9",
                                           "max", "mean/gomp-act", "p99.9/gomp-act", "mean/futex",
                                           "p99/timer", "all-thr", "overrun/stall", "steal ms"}};
  for (const char* c : {"spin-pingpong", "futex-pingpong", "timer-wakeup", "region", "parallel_for",
                        "periodic-region", "periodic-region-response"}) {
    for (const Json& r : rows) {
      if (r["construct"] != c) continue;
      const Key k{r["runtime"], c}, gomp{"libgomp-active", c};
      const bool floor = k.first == "floor";
      const std::string wait = r.value("wait", "");
      const bool periodic = k.second == "periodic-region" || k.second == "periodic-region-response";
      const bool sleeps = wait == "block" || wait == "passive" || k.second == "periodic-region";
      t.push_back({c, k.first, ns(r["mean_ns"]), ns(r["p50_ns"]), ns(r["p99_ns"]), ns(r["p999_ns"]),
                   ns(r["max_ns"]), floor ? "-" : x(ratio(ix, k, gomp, "mean_ns")),
                   floor ? "-" : x(ratio(ix, k, gomp, "p999_ns")),
                   floor || !sleeps ? "-" : x(ratio(ix, k, {"floor", "futex-pingpong"}, "mean_ns")),
                   periodic ? x(ratio(ix, k, {"floor", "timer-wakeup"}, "p99_ns")) : "-",
                   r.contains("all_threads_share")
                       ? fmt::format("{:.4f}", r["all_threads_share"].get<double>())
                       : "-",
                   r.contains("stalls") ? fmt::format("{}/{}", r["overruns"].get<std::int64_t>(),
                                                      r["stalls"].get<std::int64_t>())
                                        : "-",
                   std::to_string(r["host_steal_ns"].get<std::int64_t>() / 1'000'000)});
    }
  }
  fmt::print(
      "rtpar bench forkjoin: {} threads, {} iterations in {} interleaved rounds, {}, "
      "periodic {} x {}\n",
      o.threads, o.iters, rounds,
      o.fifo ? fmt::format("SCHED_FIFO {}", o.priority) : std::string("SCHED_OTHER"),
      o.periodic_releases, o.period);
  fmt::print("cpu latency cap (/dev/cpu_dma_latency, every row alike): {}\n",
             o.cpu_latency_us < 0 ? std::string("none (idle cores may sleep deeply)")
                                  : fmt::format("{} µs, held for the whole run", o.cpu_latency_us));
  if (drift["rtt_min_ns"].get<std::int64_t>() > 0) {
    fmt::print("host probe (median spin round trip of each program run): {}..{} ns{}\n",
               drift["rtt_min_ns"].get<std::int64_t>(), drift["rtt_max_ns"].get<std::int64_t>(),
               drift["unstable"].get<bool>()
                   ? fmt::format(" — WARNING: {:.1f}x apart: the host moved the vCPUs during "
                                 "the run, rows mix fast and slow phases (docs/bench.md)",
                                 drift["spread"].get<double>())
                   : "");
  }
  fmt::print("ns per region (floors: per round trip); ratios are same-run\n\n{}\n",
             report::render_table(t, {false, false, true, true, true, true, true, true, true, true,
                                      true, true, true, true}));
  std::vector<std::vector<std::string>> g{{"target", "value", "limit", "met"}};
  for (const Json& goal : goals) {
    g.push_back({goal["target"], fmt::format("{:.2f}", goal["value"].get<double>()),
                 fmt::format("<= {:.2f}", goal["limit"].get<double>()),
                 goal["met"].get<bool>() ? "yes" : "NO"});
  }
  if (g.size() > 1) {
    fmt::print("\ntargets (issue 3, item 4; issue 14; reported, not asserted)\n\n{}\n",
               report::render_table(g, {false, true, true, false}));
  }
}

// split gives round k of `rounds` its share of total (the first total % rounds get one more).
std::int64_t split(std::int64_t total, int rounds, int k) {
  return total / rounds + (k < total % rounds ? 1 : 0);
}

// measuring_cpus lists the first `threads` CPUs this process may use: rank r runs on the r-th.
// Computed here, once, because a child's own affinity may already be narrowed by its runtime
// (libgomp binds the initial thread when OMP_PROC_BIND is set) by the time it asks.
std::vector<int> measuring_cpus(const ForkjoinOptions& o) {
  const auto bad = [&](int allowed) {
    return InputError(SourceLocation{"<command line>", 0, 0}, "--threads",
                      fmt::format("{}: must be in 2..64 and at most the {} CPUs this process may "
                                  "use (more members than CPUs livelock spinning teams)",
                                  o.threads, allowed));
  };
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) throw bad(0);
  if (o.threads < 2 || o.threads > 64 || CPU_COUNT(&mask) < o.threads) throw bad(CPU_COUNT(&mask));
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE && static_cast<int>(cpus.size()) < o.threads; ++c) {
    if (CPU_ISSET(c, &mask)) cpus.push_back(c);
  }
  return cpus;
}

// validate checks the other options and returns the release period.
Duration validate(const ForkjoinOptions& o) {
  const auto bad = [](const char* field, const std::string& why) {
    return InputError(SourceLocation{"<command line>", 0, 0}, field, why);
  };
  if (o.iters < 1) throw bad("--iters", "must be >= 1");
  if (o.periodic_releases < 0) throw bad("--periodic-releases", "must be >= 0");
  if (o.priority < 1 || o.priority > 98) throw bad("--priority", "must be in 1..98");
  if (o.rounds < 1 || o.rounds > 1000) throw bad("--rounds", "must be in 1..1000");
  if (o.timeout_s < 1) throw bad("--timeout", "must be >= 1");
  Duration period{};
  try {
    period = parse_duration(o.period);
  } catch (const std::invalid_argument& e) {
    throw bad("--period", "'" + o.period + "': " + e.what());
  }
  if (period < std::chrono::microseconds(10)) throw bad("--period", "must be >= 10us");
  if (!o.samples.empty()) {
    std::error_code ec;
    fs::create_directories(o.samples, ec);
    if (ec || access(o.samples.c_str(), W_OK) != 0) {
      throw bad("--samples", "cannot create or write '" + o.samples + "'");
    }
  }
  return period;
}

// program_args is the command line of one program run (bench/common/options.hpp).
std::vector<std::string> program_args(const ForkjoinOptions& o, const std::string& cpus,
                                      Duration period, std::pair<std::int64_t, std::int64_t> pass,
                                      const fs::path& samples_dir) {
  std::vector<std::string> args;
  auto add = [&](const char* flag, std::string value) {
    args.emplace_back(flag);
    args.push_back(std::move(value));
  };
  add("--threads", std::to_string(o.threads));
  add("--cpus", cpus);
  add("--iters", std::to_string(pass.first));
  add("--periodic-releases", std::to_string(pass.second));
  add("--period-ns", std::to_string(period.count()));
  add("--samples", samples_dir.string());
  if (o.fifo) add("--priority", std::to_string(o.priority));
  if (o.fifo) args.emplace_back("--fifo");
  return args;
}

// run_size runs every program for the team size o.threads, then prints the table (or, with
// --json, appends the size's document to docs); returns the exit status.
int run_size(const ForkjoinOptions& o, Json& docs) {
  const std::vector<int> cpus = measuring_cpus(o);
  std::string cpu_list;
  for (int c : cpus) cpu_list += (cpu_list.empty() ? "" : ",") + std::to_string(c);
  const Duration period = validate(o);
  const int rounds = static_cast<int>(std::min<std::int64_t>(o.rounds, o.iters));

  // Locate the programs; a missing one is skipped with a message, not an error.
  std::vector<std::pair<ProgramRun, fs::path>> runs;
  Json skipped = Json::array();
  std::set<std::string> reported;
  for (const ProgramRun& run : program_runs(o)) {
    if (auto path = rtpar_bench::find_program(run.program)) {
      runs.emplace_back(run, *path);
      continue;
    }
    if (reported.insert(run.program).second) {
      std::string where;
      for (const auto& d : rtpar_bench::program_dirs()) where += " " + d.string();
      fmt::print(stderr, "rtpar bench forkjoin: skipping {}: not found in{}{}\n", run.program,
                 where, run.program == "rtpar-bench-rtpar" ? "" : rtpar_bench::kPeerMissingHint);
    }
    skipped.push_back({{"program", run.label()}, {"reason", "not found"}});
  }

  // Back-to-back constructs run in `rounds` passes, every program once per pass, so a change of
  // the host's state during the run (vCPUs moved) is spread over all runtimes instead of
  // landing on one. The periodic variant then runs whole, one program at a time: split up, it
  // would hide what spinning between releases does under RT throttling.
  std::vector<std::pair<std::int64_t, std::int64_t>> passes;  // (iters, periodic releases)
  passes.reserve(static_cast<std::size_t>(rounds) + 1);
  for (int k = 0; k < rounds; ++k) passes.emplace_back(split(o.iters, rounds, k), 0);
  if (o.periodic_releases > 0) passes.emplace_back(0, o.periodic_releases);
  const rtpar_bench::ScratchDir scratch;
  std::vector<rtpar_bench::Pool> pools;
  std::vector<bool> dead(runs.size(), false);
  int failed = 0, refused = 0;
  const bool progress = !o.json && isatty(STDERR_FILENO);
  for (std::size_t k = 0; k < passes.size(); ++k) {
    const fs::path dir = scratch.path() / ("pass-" + std::to_string(k));
    fs::create_directories(dir);
    const auto args = program_args(o, cpu_list, period, passes[k], dir);
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (dead[i]) continue;
      const auto& [run, path] = runs[i];
      if (progress) fmt::print(stderr, "pass {}/{}: {}\n", k + 1, passes.size(), run.label());
      const std::int64_t steal_before = rtpar_bench::steal_ns(cpus);
      const auto c = rtpar::platform::run_child(path, args, run.env, o.timeout_s);
      const std::int64_t steal = rtpar_bench::steal_ns(cpus) - steal_before;
      std::string why = c.failure(o.timeout_s);
      if (why.empty()) {
        const Json doc = Json::parse(c.out, nullptr, false);
        why = doc.is_object() && doc.contains("results") && doc["results"].is_array()
                  ? rtpar_bench::pool_run(doc, dir, steal, pools)
                  : "printed no valid results JSON";
      }
      if (why.empty()) continue;
      // A program that failed once is not run again: its rows would mix passes unevenly.
      fmt::print(stderr, "rtpar bench forkjoin: {} failed: {}\n", run.label(), why);
      skipped.push_back({{"program", run.label()}, {"reason", why}});
      dead[i] = true;
      ++failed;
      refused += WIFEXITED(c.status) && WEXITSTATUS(c.status) == kExitEnvironment;
    }
  }

  const std::int64_t stall_ns = rtpar_bench::stall_threshold_ns();
  Json rows = Json::array();
  for (const auto& p : pools) {
    if (!o.samples.empty()) {
      rtpar_bench::write_samples_csv(o.samples, p.row["runtime"], p.row["construct"], p.samples);
    }
    rows.push_back(rtpar_bench::pooled_row(p, stall_ns));
  }
  if (rows.empty()) {
    throw EnvironmentError("no bench program produced results",
                           refused > 0 && o.fifo
                               ? "SCHED_FIFO needs root or CAP_SYS_NICE; or drop --fifo"
                               : "build the bench/ programs (they install to libexec/rtpar)");
  }
  const Json goals = rtpar_bench::targets(rows);
  const Json drift = rtpar_bench::probe_drift(rows);
  if (o.json) {
    const Json out = {
        {"results", rows},
        {"config",
         {{"threads", o.threads},
          {"cpus", cpu_list},
          {"iters", o.iters},
          {"rounds", rounds},
          {"sched", o.fifo ? "fifo" : "other"},
          {"priority", o.fifo ? o.priority : 0},
          {"periodic_releases", o.periodic_releases},
          {"period_ns", period.count()},
          {"cpu_latency_us", o.cpu_latency_us >= 0 ? Json(o.cpu_latency_us) : Json(nullptr)}}},
        {"probe", drift},
        {"targets", goals},
        {"skipped", skipped}};
    docs.push_back(out);
  } else {
    render_human(o, rounds, rows, goals, drift);
  }
  return failed > 0 ? kExitFail : kExitOk;
}

// threads_range parses --threads: "N" or "LO..HI" (team sizes 2..64; each checked against the CPUs
// when it is measured).
std::pair<int, int> threads_range(const std::string& spec) {
  const auto bad = [&] {
    return InputError(SourceLocation{"<command line>", 0, 0}, "--threads",
                      "'" + spec + "': expected N or LO..HI, team sizes in 2..64");
  };
  const auto number = [&](const std::string& t) {
    if (t.empty() || t.size() > 2 || t.find_first_not_of("0123456789") != std::string::npos) {
      throw bad();
    }
    return std::stoi(t);
  };
  const std::size_t dots = spec.find("..");
  const int lo = number(dots == std::string::npos ? spec : spec.substr(0, dots));
  const int hi = dots == std::string::npos ? lo : number(spec.substr(dots + 2));
  if (lo < 2 || hi < lo || hi > 64) throw bad();
  return {lo, hi};
}

// cpu_latency_cap parses --cpu-latency: "off" (-1) or a duration ≥ 0 of whole µs.
std::int64_t cpu_latency_cap(const std::string& text) {
  if (text == "off") return -1;
  try {
    return detail::cpu_latency_us(parse_duration(text).count());
  } catch (const std::invalid_argument& e) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--cpu-latency",
                     "'" + text + "': " + e.what() + " (a duration like 0us, or off)");
  }
}

}  // namespace

Command add_bench_forkjoin(CLI::App& app) {
  auto o = std::make_shared<ForkjoinOptions>();
  app.add_option("--threads", o->threads_spec,
                 "Team size including the master (2..CPUs), or a range LO..HI measured in turn")
      ->capture_default_str();
  app.add_option("--iters", o->iters, "Timed back-to-back regions per runtime and construct")
      ->capture_default_str();
  app.add_flag("--fifo", o->fifo, "Measuring threads at SCHED_FIFO (default SCHED_OTHER)");
  app.add_option("--priority", o->priority, "SCHED_FIFO priority with --fifo")
      ->capture_default_str();
  app.add_option("--periodic-releases", o->periodic_releases,
                 "Periodic variant: number of releases (0 skips it)")
      ->capture_default_str();
  app.add_option("--period", o->period, "Periodic variant: release period")->capture_default_str();
  app.add_option("--rounds", o->rounds, "Split --iters over this many interleaved program runs")
      ->capture_default_str();
  app.add_option("--samples", o->samples, "Write raw per-sample ns as CSV files into DIR");
  app.add_option("--runtimes", o->runtimes, "Subset of rtpar,libgomp,libomp,tbb")
      ->delimiter(',')
      ->check(CLI::IsMember({"rtpar", "libgomp", "libomp", "tbb"}));
  app.add_option("--timeout", o->timeout_s, "Seconds before a bench program is killed")
      ->capture_default_str();
  app.add_flag("--json", o->json, "Print the merged results as JSON on stdout");
  app.add_option("--cpu-latency", o->cpu_latency,
                 "Hold this CPU idle-exit latency cap (/dev/cpu_dma_latency) for the whole run, "
                 "every runtime alike (as `rtpar run` does by default), or off")
      ->capture_default_str();
  return [o]() {
    const auto [lo, hi] = threads_range(o->threads_spec);
    o->cpu_latency_us = cpu_latency_cap(o->cpu_latency);
    // Held by this process for every child program: the kernel keeps the cap while it is open.
    const detail::CpuLatencyRequest cap(o->cpu_latency_us);
    if (cap.requested() && !cap.held()) {
      throw EnvironmentError("cannot hold the CPU latency cap: " + cap.why(),
                             "run as root, or pass --cpu-latency off");
    }
    {  // every size and option is checked before anything is measured
      ForkjoinOptions largest = *o;
      largest.threads = hi;
      (void)measuring_cpus(largest);
      (void)validate(largest);
    }
    Json docs = Json::array();
    int status = kExitOk;
    for (int n = lo; n <= hi; ++n) {
      ForkjoinOptions one = *o;
      one.threads = n;
      if (!o->json && hi > lo) fmt::print("{}== team size {} ==\n", n == lo ? "" : "\n", n);
      status = std::max(status, run_size(one, docs));
    }
    if (o->json) {
      // One size: its document. Several: {"sizes": [one document per size, ascending]}.
      fmt::print("{}\n", docs.size() == 1 ? docs[0].dump(2) : Json{{"sizes", docs}}.dump(2));
    }
    return status;
  };
}

}  // namespace rtpar::bench
