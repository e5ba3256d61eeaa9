// calibrate.cpp — `rtpar calibrate`: measure fork/join cost, release latency and barrier latency
// per team size and wait policy on this machine and write the overhead profile that analyses
// charge (FJOS §VI; RT-OpenMP §VI-B; docs/analysis.md "Overhead profiles").
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/atomic_file.hpp"
#include "cli/commands.hpp"
#include "cli/cpu_latency_flag.hpp"
#include "cli/machine_profile.hpp"
#include "core/duration_flag.hpp"
#include "platform/cpu_latency.hpp"
#include "platform/rt_thread.hpp"
#include "rtpar/error.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/calibrate.hpp"

namespace rtpar::cli {

namespace {
struct CalibrateOptions {
  int threads = 0;
  int iters = 20'000;
  int releases = 300;
  int barriers = 2'000;
  // period: the release periods measured, comma-separated; the profile keeps the worst. A
  // release after a long idle wakes slower (measured here: p50 14 us at 1 ms, 28-68 us at 20 ms),
  // so one short period would undercharge tasks with longer ones.
  std::string period = "1ms,20ms";
  bool fifo = false;
  std::string cpu_latency = "0us";  // --cpu-latency (with --fifo, as `rtpar run` holds it)
  bool no_cpu_latency = false;      // --no-cpu-latency
  // supply: how long to measure the supply loss (0 skips); supply_burst: one spin burst, the
  // longest window measured (docs/analysis.md "Supply loss").
  std::string supply = "10s";
  std::string supply_burst = "50ms";
  std::string out;
};
}  // namespace

Command add_calibrate(CLI::App& app) {
  auto opts = std::make_shared<CalibrateOptions>();
  // An explicit 0 or negative count is an error, not the default (which is not giving it).
  app.add_option("--threads", opts->threads, "Largest team size (default: all online CPUs)")
      ->check(CLI::PositiveNumber);
  app.add_option("--iters", opts->iters, "Regions measured per configuration")
      ->check(CLI::Range(100, 10'000'000))
      ->capture_default_str();
  app.add_option("--releases", opts->releases,
                 "Periodic releases measured per configuration and period for the release "
                 "latency (0 skips)")
      ->check(CLI::Range(0, 10'000'000))
      ->capture_default_str();
  app.add_option("--barriers", opts->barriers,
                 "Team barriers measured per configuration for the barrier latency (0 skips)")
      ->check(CLI::Range(0, 10'000'000))
      ->capture_default_str();
  app.add_option("--period", opts->period,
                 "Release periods of the release-latency measurement, comma-separated (each "
                 "100us..1s); the profile keeps the worst of them")
      ->capture_default_str();
  app.add_flag("--fifo", opts->fifo, "Measure at SCHED_FIFO priority 50");
  app.add_option("--cpu-latency", opts->cpu_latency,
                 "With --fifo: the CPU latency cap held while measuring, as `rtpar run` holds it "
                 "(docs/cli.md)")
      ->capture_default_str();
  app.add_flag("--no-cpu-latency", opts->no_cpu_latency, "Hold no CPU latency cap");
  app.add_option("--supply", opts->supply,
                 "How long to measure the supply lost per window on every CPU (0s skips; "
                 "docs/analysis.md \"Supply loss\")")
      ->capture_default_str();
  app.add_option("--supply-burst", opts->supply_burst,
                 "One spin burst of the supply measurement: the longest window measured "
                 "(1ms..1s)")
      ->capture_default_str();
  app.add_option("--out", opts->out,
                 "Write the overhead profile (JSON) to this file (default: this machine's profile, "
                 "charged by check, run and simulate)");
  return [opts]() {
    std::int64_t cap_us = -1;
    if (opts->fifo && !opts->no_cpu_latency) {
      cap_us = parse_cpu_latency_flag(opts->cpu_latency);
    }
    // Measured under the same cap as the runs the profile will be charged for (`rtpar run`).
    const detail::CpuLatencyRequest cap(cap_us);
    if (cap.requested() && !cap.held()) {
      fmt::print(stderr,
                 "rtpar: warning: CPU latency cap not held ({}); the release latency is "
                 "measured with deep idle states\n",
                 cap.why());
    }
    const std::vector<int> cpus = online_cpus();
    const int max_threads = opts->threads > 0 ? opts->threads : static_cast<int>(cpus.size());
    if (max_threads > static_cast<int>(cpus.size())) {
      throw InputError(
          SourceLocation{"<command line>", 0, 0}, "--threads",
          fmt::format("{} threads but only {} CPUs are online", max_threads, cpus.size()));
    }
    std::vector<Duration> periods;
    for (std::size_t start = 0; start <= opts->period.size();) {
      const std::size_t comma = std::min(opts->period.find(',', start), opts->period.size());
      const std::string one = opts->period.substr(start, comma - start);
      const Duration period = parse_duration_flag("--period", one, DurationFloor::zero);
      if (period < std::chrono::microseconds(100) || period > std::chrono::seconds(1)) {
        throw InputError(SourceLocation{"<command line>", 0, 0}, "--period",
                         "'" + one + "': must be in 100us..1s");
      }
      periods.push_back(period);
      start = comma + 1;
    }
    const Duration supply = parse_duration_flag("--supply", opts->supply, DurationFloor::zero);
    const Duration burst =
        parse_duration_flag("--supply-burst", opts->supply_burst, DurationFloor::zero);
    if (burst < std::chrono::milliseconds(1) || burst > std::chrono::seconds(1)) {
      throw InputError(SourceLocation{"<command line>", 0, 0}, "--supply-burst",
                       "'" + opts->supply_burst + "': must be in 1ms..1s");
    }
    if (supply.count() < 0 || supply > std::chrono::hours(24) ||
        (supply.count() > 0 && supply < 4 * burst)) {
      throw InputError(SourceLocation{"<command line>", 0, 0}, "--supply",
                       fmt::format("'{}': must be 0s (skip) or 4 bursts ({}) .. 24h", opts->supply,
                                   format_duration(4 * burst)));
    }
    // Without --out the profile becomes this machine's (machine_profile.hpp): `check`, `run` and
    // `simulate` charge it from then on.
    const bool machine_wide = opts->out.empty();
    if (machine_wide) {
      opts->out = machine_profile_path();
      std::error_code ec;
      std::filesystem::create_directories(std::filesystem::path(opts->out).parent_path(), ec);
    }
    // A bad --out fails now, not after minutes of measuring.
    check_writable_file(opts->out, machine_wide ? "machine profile" : "--out");
    OverheadProfile profile;
    // machine_identity first: choose_overhead charges a machine profile only where it was made.
    profile.machine =
        fmt::format("{}, {}{})", machine_identity(), opts->fifo ? "SCHED_FIFO 50" : "SCHED_OTHER",
                    cap.held() ? fmt::format(", cpu latency cap {} us", cap.requested_us()) : "");
    // The master is this thread: it runs where and how members[0] is described.
    ThreadConfig master;
    master.cpu = cpus.front();
    master.sched = opts->fifo ? SchedClass::fifo : SchedClass::other;
    master.priority = 50;
    detail::apply_to_current_thread(master);
    fmt::print("{:>7}  {:<6}  {:<11}  {:>9}  {:>8}  {:>8}  {:>9}  {:>9}\n", "threads", "wait",
               "measure", "mean ns", "p50", "p99", "p99.9", "max");
    const auto row = [](int threads, WaitKind wait, const char* what, const ForkJoinCost& c) {
      fmt::print("{:>7}  {:<6}  {:<11}  {:>9.0f}  {:>8}  {:>8}  {:>9}  {:>9}\n", threads,
                 to_string(wait), what, c.mean_ns, c.p50_ns, c.p99_ns, c.p999_ns, c.max_ns);
    };
    for (int threads = 1; threads <= max_threads; ++threads) {
      for (const WaitPolicy wait :
           {WaitPolicy::spin(), WaitPolicy::block(), WaitPolicy::hybrid(Duration(50'000))}) {
        for (const bool parked : {false, true}) {
          TeamConfig config;
          config.wait = wait;
          for (int r = 0; r < threads; ++r) {
            ThreadConfig member;
            member.cpu = cpus[static_cast<std::size_t>(r)];
            member.sched = opts->fifo ? SchedClass::fifo : SchedClass::other;
            member.priority = 50;
            member.name = "calib" + std::to_string(r);
            config.members.push_back(member);
          }
          const ForkJoinCost c = measure_fork_join_cost(config, opts->iters, parked);
          profile.fork_join.push_back(c);
          row(threads, wait.kind, parked ? "parked" : "b2b", c);
          if (parked && opts->releases > 0) {
            // A release finds its cores idle or running lower-priority work (a shared core); the
            // profile keeps the worse of the two at every statistic, so a planner's charge covers
            // both (docs/analysis.md "Overhead profiles").
            // ... and after short and long idles (every --period): the worst of all of them.
            std::optional<ForkJoinCost> r;
            for (const Duration period : periods) {
              const std::string at = " " + format_duration(period);
              const ForkJoinCost idle = measure_release_latency(config, opts->releases, period);
              row(threads, wait.kind, ("idle" + at).c_str(), idle);
              r = r ? worst_of(*r, idle) : idle;
              if (opts->fifo) {
                const ForkJoinCost busy =
                    measure_release_latency(config, opts->releases, period, /*busy=*/true);
                row(threads, wait.kind, ("busy" + at).c_str(), busy);
                r = worst_of(*r, busy);
              }
            }
            profile.release.push_back(*r);
            row(threads, wait.kind, "release", *r);
          }
          if (!parked && opts->barriers > 0) {
            const ForkJoinCost b = measure_barrier_cost(config, opts->barriers);
            profile.barrier.push_back(b);
            row(threads, wait.kind, "barrier", b);
          }
        }
      }
    }
    // The budget mechanism (docs/reliability.md, "Budgets"): measured on the master's CPU, at its
    // class; stated in the profile, not charged by the planners yet.
    {
      const BudgetCosts b = measure_budget_cost(opts->iters);
      profile.budget_job = b.job;
      profile.budget_demotion = b.demotion;
      const auto budget_row = [](const char* what, const BudgetCost& c) {
        fmt::print("{:>7}  {:<6}  {:<11}  {:>9}  {:>8}  {:>8}  {:>9}  {:>9}\n", 1, "-", what, "-",
                   c.p50_ns, c.p99_ns, c.p999_ns, c.max_ns);
      };
      budget_row("budget job", b.job);
      if (b.demotion) {
        budget_row("demotion", *b.demotion);
      } else {
        fmt::print("  budget demotion not measured: the master is not at SCHED_FIFO (--fifo)\n");
      }
    }
    if (supply.count() > 0) {
      SupplyConfig sc;
      sc.duration = supply;
      sc.burst = burst;
      for (const std::int64_t w : {100'000LL, 200'000LL, 500'000LL, 1'000'000LL, 2'000'000LL,
                                   5'000'000LL, 10'000'000LL, 20'000'000LL, 50'000'000LL}) {
        if (Duration(w) < burst) sc.windows.emplace_back(w);
      }
      sc.windows.push_back(burst);
      for (const int cpu : std::vector<int>(cpus.begin(), cpus.begin() + max_threads)) {
        ThreadConfig t;
        t.cpu = cpu;
        t.sched = opts->fifo ? SchedClass::fifo : SchedClass::other;
        t.priority = 50;
        t.name = "supply" + std::to_string(cpu);
        sc.threads.push_back(t);
      }
      profile.supply = measure_supply_loss(sc);
      if (profile.supply.empty()) {
        throw InputError(SourceLocation{"<command line>", 0, 0}, "--supply",
                         "too short for one burst: nothing measured");
      }
      fmt::print("\n{:>10}  {:>10}  {:>8}   supply lost in any window (max over {} CPU(s))\n",
                 "window", "lost", "bursts", sc.threads.size());
      for (const SupplyLoss& s : profile.supply) {
        fmt::print("{:>10}  {:>10}  {:>8}\n", format_duration(Duration(s.window_ns), 3),
                   format_duration(Duration(s.loss_ns), 3), s.samples);
      }
    }
    // Replaced as a whole or not at all: a planner never reads half a profile.
    write_file_atomically(opts->out, overhead_profile_json(profile) + "\n");
    fmt::print("overhead profile written to {}{}\n", opts->out,
               machine_wide ? " (this machine's: check, run and simulate charge it; "
                              "--overhead none to opt out)"
                            : "");
    return kExitOk;
  };
}

}  // namespace rtpar::cli
