// bench_latency.cpp — `rtpar bench latency`: runs the scheduling- and barrier-latency
// microbenchmarks (latency_sched.cpp, latency_barrier.cpp) and prints their percentiles like
// RT-OpenMP Table II, as a table or JSON, optionally with the raw samples as CSV.
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "core/table.hpp"
#include "driver/commands.hpp"
#include "driver/latency_barrier.hpp"
#include "driver/latency_sched.hpp"
#include "rtpar/error.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/report.hpp"

namespace rtpar::bench {

namespace {

struct LatencyOptions {
  int threads = 0;  // 0 = one per online CPU
  int trials = 2000;
  std::string wait = "all";
  bool best_effort = false;
  bool json = false;
  std::string samples;
};

// Measurement is one row of the output: a benchmark, its wait policy (barrier only) and samples.
struct Measurement {
  std::string benchmark;  // "sched_latency" or "barrier_latency"
  std::optional<std::string> wait;
  std::vector<std::int64_t> sorted;  // per-trial ns, ascending
};

// kQuantiles are Table II's percentiles plus p99; max is q = 1.
constexpr double kQuantiles[] = {0.25, 0.50, 0.75, 0.95, 0.99, 1.0};
constexpr const char* kQuantileNames[] = {"p25", "p50", "p75", "p95", "p99", "max"};

InputError bad_option(const std::string& option, const std::string& message) {
  return InputError(SourceLocation{"<command line>", 0, 0}, option, message);
}

// pick_cpus takes the first `threads` CPUs this process may use (all when threads is 0).
std::vector<int> pick_cpus(int threads) {
  std::vector<int> cpus = online_cpus();
  if (threads == 0) return cpus;
  if (static_cast<std::size_t>(threads) > cpus.size()) {
    throw bad_option("--threads", fmt::format("{} threads need {} CPUs, but this process may use "
                                              "only {} (one thread per CPU)",
                                              threads, threads, cpus.size()));
  }
  cpus.resize(static_cast<std::size_t>(threads));
  return cpus;
}

// lock_memory keeps every page resident, so no sample includes a page fault. A failure is not
// fatal (the benchmark still means something) but is reported with the results. Without
// privilege it is skipped: MCL_FUTURE under a finite RLIMIT_MEMLOCK would make creating the
// threads (8 MiB stacks) fail with EAGAIN, turning a missing nicety into a refused run.
bool lock_memory() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return false;  // sanitizer shadow memory cannot be locked; such builds are not for latency
#else
  rlimit limit{};
  getrlimit(RLIMIT_MEMLOCK, &limit);
  if (geteuid() != 0 && limit.rlim_cur != RLIM_INFINITY) {
    fmt::print(stderr,
               "rtpar: warning: memory not locked (RLIMIT_MEMLOCK is finite; ulimit -l unlimited "
               "or root locks it); samples may include page faults\n");
    return false;
  }
  if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0) return true;
  const int err = errno;
  munlockall();  // leave no partial MCL_FUTURE state behind
  fmt::print(stderr, "rtpar: warning: mlockall failed ({}); samples may include page faults\n",
             std::strerror(err));
  return false;
#endif
}

// check_samples_dir creates DIR and checks that it is writable, before any measurement runs.
void check_samples_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir) || access(dir.c_str(), W_OK) != 0) {
    throw bad_option("--samples", "cannot create or write the directory '" + dir + "'" +
                                      (ec ? ": " + ec.message() : std::string()));
  }
}

// Column is one named per-thread series of a CSV file, one value per trial.
using Column = std::pair<std::string, const std::vector<std::int64_t>*>;

// write_csv writes one row per trial: trial index, job-level latency, then the extra columns.
void write_csv(const std::string& path, const std::vector<std::int64_t>& per_trial,
               const std::vector<Column>& columns) {
  std::ofstream out(path);
  out << "trial,latency_ns";
  for (const auto& c : columns) out << ',' << c.first;
  out << '\n';
  for (std::size_t k = 0; k < per_trial.size(); ++k) {
    out << k << ',' << per_trial[k];
    for (const auto& c : columns) out << ',' << (*c.second)[k];
    out << '\n';
  }
  out.flush();
  if (!out) throw std::runtime_error("writing " + path + " failed");
}

// late_trials counts the trials in which some low-priority thread started spinning only after the
// release: the core was held by something non-preemptible, so the sample is not a preemption.
std::int64_t late_trials(const SchedLatencyResult& s, std::int64_t offset_ns) {
  std::int64_t count = 0;
  for (std::size_t k = 0; k < s.per_trial.size(); ++k) {
    bool late = false;
    for (const auto& t : s.low_start) late = late || t[k] >= offset_ns;
    count += late ? 1 : 0;
  }
  return count;
}

std::vector<std::int64_t> sorted_copy(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

WaitPolicy policy_named(const std::string& name) {
  if (name == "spin") return WaitPolicy::spin();
  if (name == "block") return WaitPolicy::block();
  return WaitPolicy{};  // hybrid with the team's default spin budget
}

std::string micros(std::int64_t ns) { return fmt::format("{:.1f}", static_cast<double>(ns) / 1e3); }

std::string label(const Measurement& m) {
  return m.wait ? "barrier latency (" + *m.wait + ")" : std::string("scheduling latency");
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::string s;
  for (int c : cpus) s += (s.empty() ? "" : ",") + std::to_string(c);
  return s;
}

std::string results_table(const std::vector<Measurement>& rows) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"measurement (us)", "p25", "p50", "p75", "p95", "p99", "max", "n"});
  for (const auto& m : rows) {
    std::vector<std::string> row{label(m)};
    for (double q : kQuantiles) row.push_back(micros(percentile(m.sorted, q)));
    row.push_back(std::to_string(m.sorted.size()));
    cells.push_back(std::move(row));
  }
  return report::render_table(cells, {false, true, true, true, true, true, true, true});
}

std::string results_json(const std::vector<Measurement>& rows, const std::vector<int>& cpus,
                         bool best_effort, bool memory_locked) {
  nlohmann::json doc;
  doc["best_effort"] = best_effort;
  doc["memory_locked"] = memory_locked;
  doc["cpus"] = cpus;
  doc["results"] = nlohmann::json::array();
  for (const auto& m : rows) {
    nlohmann::json r;
    r["benchmark"] = m.benchmark;
    r["wait"] = m.wait ? nlohmann::json(*m.wait) : nlohmann::json(nullptr);
    r["threads"] = cpus.size();
    r["trials"] = m.sorted.size();
    for (std::size_t i = 0; i < std::size(kQuantiles); ++i) {
      r[std::string(kQuantileNames[i]) + "_ns"] = percentile(m.sorted, kQuantiles[i]);
    }
    doc["results"].push_back(std::move(r));
  }
  return doc.dump(2);
}

}  // namespace

Command add_bench_latency(CLI::App& app) {
  auto opts = std::make_shared<LatencyOptions>();
  app.add_option("--threads", opts->threads,
                 "Threads per job, one pinned per CPU (default: every CPU this process may use)")
      ->check(CLI::Range(1, 4096));
  app.add_option("--trials", opts->trials, "Measured trials per benchmark")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  app.add_option("--wait", opts->wait, "Team wait policy for the barrier benchmark")
      ->check(CLI::IsMember({"spin", "block", "hybrid", "all"}))
      ->capture_default_str();
  app.add_flag("--best-effort", opts->best_effort,
               "Use SCHED_OTHER instead of SCHED_FIFO (no privilege needed); said in the output");
  app.add_flag("--json", opts->json, "Print the results as JSON on stdout");
  app.add_option("--samples", opts->samples,
                 "Write the raw per-trial samples (ns) as CSV into DIR");
  return [opts]() {
    const std::vector<int> cpus = pick_cpus(opts->threads);
    if (!opts->samples.empty()) check_samples_dir(opts->samples);
    const bool locked = lock_memory();
    const bool live = !opts->json && isatty(STDERR_FILENO) != 0;

    std::vector<Measurement> rows;
    SchedLatencyConfig sched;
    sched.cpus = cpus;
    sched.trials = opts->trials;
    sched.best_effort = opts->best_effort;
    if (live) fmt::print(stderr, "measuring scheduling latency...\n");
    const SchedLatencyResult s = measure_sched_latency(sched);
    rows.push_back({"sched_latency", std::nullopt, sorted_copy(s.per_trial)});
    const std::int64_t late = late_trials(s, sched.release_offset.count());
    if (!opts->samples.empty()) {
      std::vector<Column> columns;
      for (std::size_t i = 0; i < cpus.size(); ++i) {
        columns.emplace_back(fmt::format("cpu{}_ns", cpus[i]), &s.per_thread[i]);
      }
      for (std::size_t i = 0; i < cpus.size(); ++i) {
        columns.emplace_back(fmt::format("cpu{}_low_start_ns", cpus[i]), &s.low_start[i]);
      }
      write_csv(opts->samples + "/sched_latency.csv", s.per_trial, columns);
    }

    const std::vector<std::string> policies =
        opts->wait == "all" ? std::vector<std::string>{"spin", "block", "hybrid"}
                            : std::vector<std::string>{opts->wait};
    for (const auto& name : policies) {
      BarrierLatencyConfig barrier;
      barrier.cpus = cpus;
      barrier.trials = opts->trials;
      barrier.best_effort = opts->best_effort;
      barrier.wait = policy_named(name);
      if (live) fmt::print(stderr, "measuring barrier latency ({})...\n", name);
      const BarrierLatencyResult b = measure_barrier_latency(barrier);
      rows.push_back({"barrier_latency", name, sorted_copy(b.per_trial)});
      if (!opts->samples.empty()) {
        std::vector<Column> columns;
        for (std::size_t r = 0; r < cpus.size(); ++r) {
          columns.emplace_back(fmt::format("rank{}_ns", r), &b.per_member[r]);
        }
        write_csv(opts->samples + "/barrier_latency_" + name + ".csv", b.per_trial, columns);
      }
    }

    if (opts->json) {
      fmt::print("{}\n", results_json(rows, cpus, opts->best_effort, locked));
      return kExitOk;
    }
    if (opts->best_effort) fmt::print("*** BEST EFFORT (no real-time scheduling) ***\n");
    fmt::print("{} threads on CPUs {}, {} trials each, {}, memory {}\n", cpus.size(),
               cpu_list(cpus), opts->trials,
               opts->best_effort
                   ? "SCHED_OTHER"
                   : fmt::format("SCHED_FIFO (high {}, low {}, team {})", sched.high_priority,
                                 sched.low_priority, BarrierLatencyConfig{}.priority),
               locked ? "locked" : "NOT locked");
    fmt::print("{}", results_table(rows));
    if (late > 0) {
      fmt::print(
          "note: in {} scheduling trial(s) a low-priority thread started only after the "
          "release (its core was held by non-preemptible work): not preemptions\n",
          late);
    }
    if (!opts->samples.empty()) fmt::print("samples written to {}/\n", opts->samples);
    return kExitOk;
  };
}

}  // namespace rtpar::bench
