// run.cpp — `rtpar run FILE`: plan, execute on real-time threads, report.
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/core.h>

#include "cli/commands.hpp"
#include "cli/cpu_latency_flag.hpp"
#include "cli/machine_profile.hpp"
#include "cli/plan_options.hpp"
#include "cli/run_isolation.hpp"
#include "core/duration_flag.hpp"
#include "kernels/instantiate.hpp"
#include "platform/cpu_latency.hpp"
#include "platform/rt_neighbours.hpp"
#include "platform/steal_time.hpp"
#include "platform/stop_signals.hpp"
#include "report/run_verdict.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"

namespace rtpar::cli {

namespace {

struct RunOptions {
  std::string file;
  std::string duration = "10s";
  std::string out;
  bool json = false;
  bool verbose = false;       // -v: the tables in full detail (TableDetail::full)
  bool fail_on_miss = false;  // accepted, the default now
  bool allow_misses = false;  // --allow-misses: exit 0 on a broken promise
  bool best_effort = false;
  bool no_mlock = false;
  std::string cpu_latency = "0us";  // --cpu-latency DUR
  bool no_cpu_latency = false;      // --no-cpu-latency
  bool isolate = false;             // --isolate (docs/cli.md)
  std::string interference;         // --interference MODE
  std::string overhead;  // --overhead FILE|none; empty: the machine's profile (machine_profile.hpp)
  // force_place: --force-place, run a refused decomposition set placed anyway (no admission claim)
  bool force_place = false;
};

// write_stdout writes text to stdout and flushes it; returns 0 or the errno of the failure.
// SIGPIPE is ignored during `run` (platform/stop_signals.hpp), so a closed pipe is an error to
// report after the --out files are written, never a reason to lose them.
int write_stdout(std::string_view text) {
  errno = 0;
  const bool ok =
      std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0;
  return ok ? 0 : (errno != 0 ? errno : EIO);
}

}  // namespace

Command add_run(CLI::App& app) {
  auto opts = std::make_shared<RunOptions>();
  app.add_option("file", opts->file, "Task-set file (TOML)")->required();
  app.add_option("--duration", opts->duration, "How long to release jobs (e.g. 10s, 500ms)")
      ->capture_default_str();
  app.add_flag("--json", opts->json, "Print the per-task summary as JSON on stdout");
  app.add_flag("-v,--verbose", opts->verbose,
               "Show every detail in the tables: the kernel interference's sources, every "
               "segment");
  app.add_option("--out", opts->out, "Write report.json, jobs.csv and trace.json into DIR");
  app.add_flag("--allow-misses", opts->allow_misses,
               "Exit 0 even when the run broke the plan's promise (a deadline miss, a response "
               "over its bound, a lock hold over its declared hold, a chain over its bounds); "
               "the verdict line still says so");
  // --fail-on-miss was the opt-in before a broken promise failed the run by default; accepted so
  // that existing scripts keep working (docs/cli.md).
  app.add_flag("--fail-on-miss", opts->fail_on_miss,
               "Accepted for compatibility: exiting 1 on a broken promise is the default");
  app.add_flag("--best-effort", opts->best_effort,
               "Run at normal priority (SCHED_OTHER) instead of SCHED_FIFO; said in every report");
  app.add_flag("--no-mlock", opts->no_mlock, "Do not lock memory (mlockall)");
  app.add_option("--cpu-latency", opts->cpu_latency,
                 "Hold this CPU idle-exit latency cap (/dev/cpu_dma_latency) during the run; 0us "
                 "keeps idle cores polling (docs/cli.md)")
      ->capture_default_str();
  app.add_flag("--no-cpu-latency", opts->no_cpu_latency,
               "Do not hold a CPU latency cap (idle cores may sleep deeply between releases)");
  app.add_flag("--isolate", opts->isolate,
               "Remove the kernel's interference from the real-time cores for the run and restore "
               "it afterwards (root; docs/cli.md)");
  add_interference_flag(app, opts->interference);
  app.add_option("--overhead", opts->overhead,
                 "Plan with this overhead profile charged (`rtpar calibrate --out`; default: this "
                 "machine's profile when `rtpar calibrate` wrote one; `none`: nothing): the run's "
                 "bounds include it, and a set it makes unschedulable is refused")
      ->check(non_empty());
  app.add_flag("--force-place", opts->force_place,
               "Run a set the planner refuses when it can still place every strand "
               "(decomposition: a refused strand goes on the first core, worst-fit: the "
               "least-loaded); the plan keeps its refusal and promises no response bound");
  return [opts]() {
    // From here to the last report: the first stop signal (SIGINT, SIGTERM, SIGHUP, ...) ends the
    // releases, later ones are ignored until the reports are written (docs/cli.md).
    const detail::StopSignals stop_signals;
    const Duration duration =
        parse_duration_flag("--duration", opts->duration, DurationFloor::positive);
    const std::int64_t cpu_latency_us =
        opts->no_cpu_latency ? -1 : parse_cpu_latency_flag(opts->cpu_latency);
    TaskSet set = load_taskset(opts->file);
    PlanOptions planning;
    planning.interference = resolve_interference(opts->interference, set, nullptr);
    OverheadChoice overhead = choose_overhead(opts->overhead, /*for_target=*/false);
    if (overhead.profile) planning.overhead = &*overhead.profile;
    // Restores every isolated setting when it goes out of scope, after the reports are written.
    const auto isolation = isolate_for_run(set, opts->isolate, planning.interference);
    planning.force_place = opts->force_place;
    Plan plan = plan_taskset(set, planning);
    plan.notes.push_back(overhead.note);
    const TableDetail table_detail = opts->verbose ? TableDetail::full : TableDetail::summary;
    // --force-place runs a refused plan only when it places every task (and says so).
    const bool run_refused = opts->force_place && plan_places_every_task(plan);
    if (!plan.schedulable && !run_refused) {
      fmt::print(stderr, "{}", plan_table(plan, set, table_detail));
      fmt::print(
          stderr, "rtpar: refusing to run a task set that is not schedulable{}\n",
          opts->force_place ? " (--force-place: the plan still leaves a task unplaced)" : "");
      return kExitFail;
    }
    if (!plan.schedulable) {
      fmt::print(stderr,
                 "rtpar: warning: running a task set the planner refused (--force-place): no "
                 "response bound is promised for the refused tasks, only their deadlines\n");
    }
    // A bad --out must fail before a long run, not after it.
    if (!opts->out.empty()) prepare_report_dir(opts->out);
    // Task code is created only to run: lib: objects are loaded (their constructors run) here.
    kernels::instantiate_kernels(set);
    int stdout_error = opts->json ? 0 : write_stdout(plan_table(plan, set, table_detail));

    RunConfig config;
    config.duration = duration;
    config.best_effort = opts->best_effort;
    config.lock_memory = !opts->no_mlock;
    config.cpu_latency_us = cpu_latency_us;
    config.handle_signals = true;
    config.run_refused = run_refused;
    const bool live = !opts->json && isatty(STDERR_FILENO) != 0;
    if (live) {
      config.progress = [total = duration.count()](std::int64_t elapsed, std::int64_t jobs,
                                                   std::int64_t misses) {
        fmt::print(stderr, "\r  {:6.1f}s / {:.1f}s   jobs {:>9}   misses {:>6}   ",
                   static_cast<double>(elapsed) / 1e9, static_cast<double>(total) / 1e9, jobs,
                   misses);
        std::fflush(stderr);
      };
    }
    // The control thread (progress, signals, report writing) leaves the real-time cores.
    config.control_cores = set.system.nonrt_cores;
    if (!config.best_effort) {
      // A second real-time process (another run, a test suite) competes for the same cores: its
      // preemptions would read as this plan's misses. Said, not refused: it may be intended.
      for (const detail::RtNeighbour& n : detail::rt_neighbours()) {
        fmt::print(stderr,
                   "warning: process {} ({}) has {} real-time thread(s) running: this run shares "
                   "the machine with it\n",
                   n.pid, n.command, n.threads);
      }
    }
    // A task whose code threw (e.g. a job over its [task.steal] budget) stops; the others run on,
    // and the report is still printed and written before the failure is reported.
    std::optional<TaskFailure> failed;
    RunReport report;
    // The host's steal time on the real-time cores, before and after: a broken bound during a
    // host stall is said so in the verdict.
    const std::optional<std::int64_t> steal_before = detail::steal_time_ns(plan.cores);
    try {
      report = execute(set, plan, config);
    } catch (const TaskFailure& f) {
      failed.emplace(f);
      report = f.report();
    }
    if (const auto steal_after = detail::steal_time_ns(plan.cores); steal_before && steal_after) {
      report.host_steal_ns = *steal_after - *steal_before;
    }
    if (overhead.profile) report.overhead_profile = overhead.profile->source;
    if (live) fmt::print(stderr, "\n");
    if (!report.cpu_latency_refused.empty()) {
      fmt::print(stderr,
                 "rtpar: warning: CPU latency cap not held ({}): releases may wake from deep idle "
                 "states\nhint: run as root, or pass --no-cpu-latency to silence this\n",
                 report.cpu_latency_refused);
    }

    // The summary goes out first: it is not lost if writing the files fails afterwards.
    if (stdout_error == 0) {
      stdout_error =
          write_stdout(opts->json ? run_json(report) + "\n" : stats_table(report, table_detail));
    }
    if (!opts->out.empty()) {
      try {
        write_report_dir(report, opts->out);
      } catch (const std::system_error& e) {
        fmt::print(stderr,
                   "rtpar: error: {}; the reports of this run are not written, {} still "
                   "holds its previous contents\n",
                   e.what(), opts->out);
        return kExitIoError;
      }
      if (!opts->json && stdout_error == 0) {
        stdout_error = write_stdout(fmt::format("reports written to {}/\n", opts->out));
      }
    }
    if (stdout_error != 0) {
      fmt::print(stderr, "rtpar: error: cannot write to stdout: {}\n",
                 std::generic_category().message(stdout_error));
      return kExitIoError;
    }
    if (failed) {
      bool crashed = false;
      for (const TaskRun& t : report.tasks) {
        if (!t.failure.empty()) {
          fmt::print(stderr, "rtpar: error: task '{}' stopped after {} jobs: {}\n", t.name,
                     t.records.size(), t.failure);
        }
        crashed = crashed || !t.crash_signal.empty();
      }
      return crashed ? kExitTaskCrashed : kExitTaskFailed;
    }
    // The verdict is the last line (stderr with --json, where stdout is the document): a broken
    // promise exits 1 unless --allow-misses (docs/cli.md, "Verdict").
    const report::RunVerdict verdict = report::run_verdict(report);
    if (opts->json) {
      fmt::print(stderr, "{}", verdict.line);
    } else if (write_stdout(verdict.line) != 0) {
      return kExitIoError;
    }
    return verdict.broken && !opts->allow_misses ? kExitFail : kExitOk;
  };
}

}  // namespace rtpar::cli
