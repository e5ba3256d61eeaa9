// simulate.cpp — `rtpar simulate FILE`: plan, then simulate the plan (see simulate.hpp).
#include "cli/simulate.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cli/plan_options.hpp"
#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/sim_options.hpp"

namespace rtpar::cli {

namespace {

// SimulateOptions are the raw flag values; each is checked in the command (exit 2 naming it).
struct SimulateOptions {
  std::string file;
  bool json = false;
  PlanningFlags planning;
  // settings: the simulator's settings by key (sim/sim_options.hpp), each the text of its flag
  // (flag_of); empty: not given, the simulator's default.
  std::map<std::string, std::string, std::less<>> settings;
  bool required_cores = false;  // search the smallest core count instead of one simulation
  std::string miss_threshold;   // R of the search; empty: 0
  std::string max_cores;        // last core count tried; empty: 256
};

// command_line_error is an InputError for the flag `flag` (exit status 2).
InputError command_line_error(const std::string& flag, const std::string& text,
                              const std::string& why) {
  return InputError(SourceLocation{"<command line>", 0, 0}, flag, "'" + text + "': " + why);
}

// flag_of is the flag of a simulator setting: its key with dashes, e.g. --steal-attempt.
std::string flag_of(std::string_view key) {
  std::string flag = "--" + std::string(key);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

// type_name is how --help shows the value of a setting of that kind.
const char* type_name(sim::SettingValue value) {
  switch (value) {
    case sim::SettingValue::seed:
      return "N";
    case sim::SettingValue::statistic:
      return "S";
    case sim::SettingValue::team_model:
      return "MODEL";
    case sim::SettingValue::factor_range:
      return "LO..HI";
    case sim::SettingValue::horizon:
    case sim::SettingValue::duration:
      break;
  }
  return "D";
}

// flag_error is the command's error for a refused setting, named by its flag and phrased in the
// command's terms (the team model a cost needs is --team-model's value).
InputError flag_error(const sim::SimOptionError& e, const std::string& text) {
  const sim::SimSetting* s = sim::find_sim_setting(e.key);
  const std::string model = s != nullptr && s->needs ? to_string(*s->needs) : "";
  switch (e.problem) {
    case sim::SimOptionProblem::needs_model:
      return command_line_error(
          flag_of(e.key), text,
          "needs --team-model " + model +
              (model == "centralized" ? " (the greedy model has no queue)" : ""));
    case sim::SimOptionProblem::zero_under_model:
      return command_line_error(flag_of(e.key), text,
                                "must be > 0 with --team-model " + model + " (e.g. 200ns)");
    case sim::SimOptionProblem::invalid:
      break;
  }
  return command_line_error(flag_of(e.key), text, e.message);
}

// parse_threshold reads --miss-threshold: a number in [0, 1].
double parse_threshold(const std::string& text) {
  std::size_t used = 0;
  double v = -1;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  // Written so that NaN fails too.
  if (used != text.size() || text.empty() || !(v >= 0.0 && v <= 1.0)) {
    throw command_line_error("--miss-threshold", text, "must be a number in [0, 1]");
  }
  return v;
}

// parse_max_cores reads --max-cores: an integer in [1, kMaxProfiledThreads].
int parse_max_cores(const std::string& text) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || v < 1 || v > kMaxProfiledThreads) {
    throw command_line_error(
        "--max-cores", text,
        "must be an integer in [1, " + std::to_string(kMaxProfiledThreads) + "]");
  }
  return static_cast<int>(v);
}

// sim_options are the SimOptions the flags ask for (the profile from the planning flags).
SimOptions sim_options(const SimulateOptions& o, const Planning& planning) {
  SimOptions options;
  // A profile given for planning is also injected: the simulation then checks that what the
  // planners charge for it is accounted for (docs/internals/simulation.md, "Overheads").
  options.overhead = planning.options.overhead;
  for (const sim::SimSetting& s : sim::sim_settings()) {
    const std::string& text = o.settings.find(s.key)->second;
    if (text.empty()) continue;
    if (const auto e = sim::read_sim_option(options, s, text)) throw flag_error(*e, text);
    // Given at all (even 0) without its team model: refused, as a manifest does.
    if (s.needs && options.team_model != *s.needs) {
      throw flag_error({std::string(s.key), "", sim::SimOptionProblem::needs_model}, text);
    }
    if (s.value == sim::SettingValue::statistic && options.overhead == nullptr) {
      throw command_line_error(flag_of(s.key), text,
                               "needs --overhead FILE (the profile to take it from)");
    }
  }
  for (const sim::SimOptionError& e : sim::check_sim_options(options)) {
    throw flag_error(e, o.settings.find(e.key)->second);
  }
  return options;
}

// run_required_cores prints the required-cores search of every planner asked for; exit 0 when
// each found a core count, 1 when one found none up to the bound.
int run_required_cores(const SimulateOptions& o, const TaskSet& set, const Planning& planning,
                       const SimOptions& sim) {
  RequiredCoresOptions rc;
  if (!o.miss_threshold.empty()) rc.miss_threshold = parse_threshold(o.miss_threshold);
  if (!o.max_cores.empty()) rc.max_cores = parse_max_cores(o.max_cores);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string text;
  bool found = true;
  for (const PlannerKind kind : planning.planners) {
    const RequiredCoresResult r = required_cores(kind, set, planning.options, sim, rc);
    found = found && r.cores.has_value();
    if (o.json) {
      list.push_back(nlohmann::ordered_json::parse(required_cores_json(r)));
      continue;
    }
    if (!text.empty()) text += '\n';
    text += fmt::format("planner  {}\n", to_string(kind));
    text += required_cores_text(r);
  }
  if (o.json) {
    fmt::print("{}\n", planning.all ? list.dump(2) : list[0].dump(2));
  } else {
    fmt::print("{}{}", resolved_kernels_text(set), text);
  }
  return found ? kExitOk : kExitFail;
}

}  // namespace

Command add_simulate(CLI::App& app) {
  auto opts = std::make_shared<SimulateOptions>();
  app.add_option("file", opts->file, "Task-set file (TOML)")->required();
  app.add_flag("--json", opts->json, "Print the simulation as JSON on stdout");
  add_planning_flags(app, opts->planning, /*allow_all=*/true);
  // One flag per simulator setting, named after its key (sim_options.hpp).
  for (const sim::SimSetting& s : sim::sim_settings()) {
    app.add_option(flag_of(s.key), opts->settings[std::string(s.key)], std::string(s.help))
        ->type_name(type_name(s.value))
        ->check(non_empty());
  }
  CLI::Option* search = app.add_flag(
      "--required-cores", opts->required_cores,
      "Find the smallest core count whose re-planned, simulated set meets --miss-threshold");
  app.add_option("--miss-threshold", opts->miss_threshold,
                 "Largest set miss ratio that meets, in [0, 1] (default 0)")
      ->type_name("R")
      ->check(non_empty())
      ->needs(search);
  app.add_option("--max-cores", opts->max_cores,
                 "Last core count --required-cores tries (default 256)")
      ->type_name("M")
      ->check(non_empty())
      ->needs(search);
  return [opts]() {
    const TaskSet set = load_taskset(opts->file);
    const std::unique_ptr<Planning> planning = resolve_planning(opts->planning, set);
    SimOptions sim = sim_options(*opts, *planning);
    // An explicit horizon that releases too many jobs (named as the simulator names it).
    if (const auto e = rtpar::sim::check_sim_jobs(sim, set)) {
      throw InputError(SourceLocation{"<simulation>", 0, 0}, flag_of(e->key), e->message);
    }
    // Jobs are recorded (for the response p50 and p99 in --json) when they fit in memory: at most
    // kQuantileJobs released jobs (24 bytes each); above that the quantiles are null.
    constexpr std::int64_t kQuantileJobs = 4'000'000;
    sim.record_jobs =
        released_jobs(set, sim.horizon_ns.value_or(
                               default_sim_horizon(set, sim.max_horizon_ns).horizon_ns)) <=
        kQuantileJobs;
    if (opts->required_cores) return run_required_cores(*opts, set, *planning, sim);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::string text;
    std::int64_t misses = 0;
    // A plan that leaves a task unplaced simulates only part of the set, which proves nothing of
    // the rest: like `check`, exit 0 needs one complete plan (every plan, unless --planner all).
    bool every_complete = true;
    bool any_complete = false;
    for (const PlannerKind kind : planning->planners) {
      Plan plan = plan_with(kind, set, planning->options);
      plan.notes.push_back(planning->overhead_note);
      const SimResult result = simulate_plan(plan, set, sim);
      misses += result.misses;
      const bool complete = std::all_of(result.tasks.begin(), result.tasks.end(),
                                        [](const SimTaskResult& t) { return t.simulated; });
      every_complete = every_complete && complete;
      any_complete = any_complete || complete;
      if (opts->json) {
        list.push_back(nlohmann::ordered_json::parse(simulation_json(result)));
        continue;
      }
      if (!text.empty()) text += '\n';
      text += fmt::format("planner  {}  (plan: {}{})\n", to_string(kind),
                          plan.schedulable ? "SCHEDULABLE" : "NOT SCHEDULABLE",
                          plan.force_placed ? ", force-placed" : "");
      text += simulation_table(result);
    }
    if (opts->json) {
      fmt::print("{}\n", planning->all ? list.dump(2) : list[0].dump(2));
    } else {
      std::string injected =
          sim.overhead != nullptr
              ? fmt::format("overheads injected from {} at {}{}\n", opts->planning.overhead,
                            to_string(sim.overhead_statistic),
                            sim.overhead_statistic == OverheadStatistic::sampled
                                ? fmt::format(" (seed {})", sim.seed)
                                : std::string())
              : std::string();
      if (sim.context_switch_ns > 0) {
        injected += fmt::format("context switch {} per preemption\n",
                                format_duration(Duration(sim.context_switch_ns)));
      }
      if (sim.execution_min_ppm != kExecutionPpm || sim.execution_max_ppm != kExecutionPpm) {
        injected += fmt::format(
            "stochastic execution: each node's work {}..{} x declared "
            "(seed {})\n",
            static_cast<double>(sim.execution_min_ppm) / 1e6,
            static_cast<double>(sim.execution_max_ppm) / 1e6, sim.seed);
      }
      fmt::print("{}{}{}", resolved_kernels_text(set), injected, text);
    }
    const bool placed = planning->all ? any_complete : every_complete;
    return misses == 0 && placed ? kExitOk : kExitFail;
  };
}

}  // namespace rtpar::cli
