// profile.cpp — `rtpar profile FILE [--task NAME] [--runs N] [--out FILE] [--best-effort]
// [--planner NAME] [--assign KIND] [--overhead FILE]`: run each task's kernel alone, measure its
// work (CPU time on one core) and its response on its planned cores (and, for runtime = "steal",
// its online work and burdened span), print a `[[task]]` fragment and a histogram per task, and
// write the JSON `rtpar check --measured` reads (docs/cli.md "rtpar profile").
#include <cstdio>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/core.h>

#include "cli/atomic_file.hpp"
#include "cli/commands.hpp"
#include "cli/plan_options.hpp"
#include "cli/profile_output.hpp"
#include "cli/profile_run.hpp"
#include "cli/run_isolation.hpp"
#include "platform/stop_signals.hpp"
#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::cli {

namespace {

// ProfileOptions are the raw option values of `rtpar profile` as CLI11 stores them.
struct ProfileOptions {
  std::string file;
  std::string task;  // empty: every task
  std::int64_t runs = 200;
  std::string out;
  bool best_effort = false;
  bool isolate = false;    // --isolate: as `rtpar run --isolate`
  PlanningFlags planning;  // --planner, --assign, --overhead: where the team runs
};

// selected lists the indices of the tasks to profile: all, or the one named by --task.
std::vector<std::size_t> selected(const TaskSet& set, const std::string& name) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    if (name.empty() || set.tasks[i].name == name) out.push_back(i);
  }
  if (out.empty()) {
    std::string names;
    for (const TaskSpec& t : set.tasks) names += (names.empty() ? "" : ", ") + t.name;
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--task",
                     "no task named '" + name + "' in " + set.source + " (tasks: " + names + ")");
  }
  return out;
}

// seconds renders a run length for the progress line.
std::string seconds(Duration per_job, std::int64_t jobs) {
  return fmt::format("{:.1f} s",
                     static_cast<double>(per_job.count()) * static_cast<double>(jobs) / 1e9);
}

}  // namespace

Command add_profile(CLI::App& app) {
  auto opts = std::make_shared<ProfileOptions>();
  app.add_option("file", opts->file, "Task-set file (TOML)")->required();
  app.add_option("--task", opts->task, "Profile only this task (default: every task)")
      ->type_name("NAME")
      ->check(non_empty());
  app.add_option("--runs", opts->runs, "Jobs per measurement (one core, then the team)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}))
      ->capture_default_str();
  app.add_option("--out", opts->out,
                 "Write the measurements as JSON to FILE (read by `rtpar check --measured`)")
      ->type_name("FILE")
      ->check(non_empty());
  app.add_flag("--best-effort", opts->best_effort,
               "Run at normal priority (SCHED_OTHER) instead of SCHED_FIFO; said in the output");
  app.add_flag("--isolate", opts->isolate,
               "Remove the kernel's interference from the real-time cores while measuring and "
               "restore it afterwards (root; as `rtpar run --isolate`)");
  app.add_option("--planner", opts->planning.planner,
                 "Planner whose placement gives each task its cores (default: the file's)")
      ->type_name("NAME")
      ->check(non_empty());
  app.add_option("--assign", opts->planning.assign, "fork-join-rta's strand assignment")
      ->type_name("KIND")
      ->check(non_empty());
  app.add_option("--overhead", opts->planning.overhead,
                 "Overhead profile the planner charges (rtpar calibrate --out)")
      ->type_name("FILE")
      ->check(non_empty());
  return [opts]() {
    // As `rtpar run`: a stop signal ends the measurement, and the isolation below is restored.
    const detail::StopSignals stop_signals;
    const TaskSet set = load_taskset(opts->file);
    if (opts->planning.planner == "all") {
      throw InputError(SourceLocation{"<command line>", 0, 0}, "--planner",
                       "'all' cannot place a task: name one planner");
    }
    const std::unique_ptr<Planning> planning = resolve_planning(opts->planning, set);
    const PlannerKind planner = planning->planners.front();
    const std::vector<std::size_t> tasks = selected(set, opts->task);
    // A bad --out must fail before the measurement, not after it.
    if (!opts->out.empty()) check_writable_file(opts->out, "--out");
    // Restores every isolated setting when it goes out of scope, after the output is written.
    const auto isolation = isolate_for_run(set, opts->isolate, planning->options.interference);
    const Plan plan = plan_with(planner, set, planning->options);
    if (!plan.schedulable) {
      fmt::print(stderr,
                 "note: {} does not admit the set as declared; each task is still measured on "
                 "the cores the plan gives it (one core only when it gives none)\n",
                 to_string(planner));
    }
    ProfileSettings settings;
    settings.runs = opts->runs;
    settings.best_effort = opts->best_effort;
    std::vector<TaskMeasurement> measured;
    for (const std::size_t i : tasks) {
      const TaskSpec& task = set.tasks[i];
      const std::vector<int> team = team_cpus(plan.tasks[i]);
      fmt::print(stderr, "profiling \"{}\": {} jobs alone on one core ({}), then {} on {} ({})\n",
                 task.name, opts->runs, seconds(one_core_period(task), opts->runs), opts->runs,
                 team.empty() ? std::string("no team (not placed)")
                              : fmt::format("its {} planned CPUs", team.size()),
                 seconds(task.period, team.empty() ? 0 : opts->runs));
      std::fflush(stderr);
      TaskMeasurement m = profile_task(set, i, plan.tasks[i], planner, settings);
      fmt::print("{}\n", measurement_text(task, m, opts->best_effort));
      std::fflush(stdout);
      if (!m.failure.empty()) {
        fmt::print(stderr, "rtpar: error: task '{}' failed: {}; nothing written\n", task.name,
                   m.failure);
        return kExitTaskFailed;
      }
      if (m.interrupted) {
        fmt::print(stderr, "rtpar: profile interrupted; nothing written\n");
        return kExitFail;
      }
      measured.push_back(std::move(m));
    }
    if (!opts->out.empty()) {
      try {
        write_file_atomically(opts->out, profile_json(set, planner, measured, settings));
      } catch (const std::system_error& e) {
        fmt::print(stderr, "rtpar: error: {}; {} is unchanged\n", e.what(), opts->out);
        return kExitIoError;
      }
      fmt::print("profile written to {} (rtpar check {} --measured {})\n", opts->out, opts->file,
                 opts->out);
    }
    return kExitOk;
  };
}

}  // namespace rtpar::cli
