// simulate.cpp — `rtpar simulate FILE`: plan, then simulate the plan (see simulate.hpp).
#include "cli/simulate.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli/plan_options.hpp"
#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar::cli {

namespace {

// SimulateOptions are the raw flag values; each is checked in the command (exit 2 naming it).
struct SimulateOptions {
  std::string file;
  std::string horizon;  // empty: the default (hyperperiod, capped)
  bool json = false;
  PlanningFlags planning;
  std::string overhead_statistic;  // p50 | p99 | p99.9 | max | sampled; empty: p99.9
  std::string seed;                // of `sampled`; empty: 0
  std::string context_switch;      // per preemption, e.g. 5us; empty: 0
  std::string execution;           // stochastic execution range LO..HI; empty: 1..1
  std::string team_model;          // greedy | centralized | steal; empty: greedy
  std::string queue_lock;          // centralized: lock hold per enqueue/dequeue; empty: 0
  std::string steal_cost;          // steal: added per successful steal; empty: 0
  std::string steal_attempt;       // steal: a failed attempt's length (> 0); required by steal
  std::string spawn_cost;          // steal: per node a completion enables; empty: 0
  bool required_cores = false;     // search the smallest core count instead of one simulation
  std::string miss_threshold;      // R of the search; empty: 0
  std::string max_cores;           // last core count tried; empty: 256
};

// parse_horizon reads --horizon: a duration > 0.
Duration parse_horizon(const std::string& text) {
  try {
    const Duration d = parse_duration(text);
    if (d.count() <= 0) throw std::invalid_argument("must be > 0");
    return d;
  } catch (const std::invalid_argument& e) {
    throw InputError(SourceLocation{"<command line>", 0, 0}, "--horizon",
                     "'" + text + "': " + e.what());
  }
}

// command_line_error is an InputError for the flag `flag` (exit status 2).
InputError command_line_error(const std::string& flag, const std::string& text,
                              const std::string& why) {
  return InputError(SourceLocation{"<command line>", 0, 0}, flag, "'" + text + "': " + why);
}

// parse_context_switch reads --context-switch: a duration ≥ 0 (parse_duration refuses negatives;
// a leading '-' is named as such so the message is about the sign, not the syntax).
std::int64_t parse_context_switch(const std::string& text) {
  if (!text.empty() && text.front() == '-') {
    throw command_line_error("--context-switch", text, "must be >= 0");
  }
  try {
    return parse_duration(text).count();
  } catch (const std::invalid_argument& e) {
    throw command_line_error("--context-switch", text, e.what());
  }
}

// parse_cost reads a steal-model cost flag: a duration ≥ 0 (a leading '-' named as the sign).
std::int64_t parse_cost(const char* flag, const std::string& text) {
  if (text.front() == '-') throw command_line_error(flag, text, "must be >= 0");
  try {
    return parse_duration(text).count();
  } catch (const std::invalid_argument& e) {
    throw command_line_error(flag, text, e.what());
  }
}

// parse_factor_ppm reads one factor of --execution: a decimal number in [0, 10] with at most 6
// fraction digits, exactly in parts per million ("0.5" → 500000); -1 for anything else.
std::int64_t parse_factor_ppm(const std::string& text) {
  const std::size_t dot = text.find('.');
  const std::string whole = text.substr(0, dot);
  const std::string frac = dot == std::string::npos ? std::string() : text.substr(dot + 1);
  const auto digits = [](const std::string& d) {
    return d.find_first_not_of("0123456789") == std::string::npos;
  };
  if (whole.empty() || whole.size() > 2 || !digits(whole) || frac.size() > 6 || !digits(frac) ||
      (dot != std::string::npos && frac.empty())) {
    return -1;
  }
  std::int64_t ppm = std::stoll(whole) * kExecutionPpm;
  std::int64_t scale = kExecutionPpm / 10;
  for (const char c : frac) {
    ppm += (c - '0') * scale;
    scale /= 10;
  }
  return ppm;
}

// parse_execution reads --execution LO..HI (factors of the declared work, 0 ≤ LO ≤ HI ≤ 10) into
// SimOptions' execution range.
void parse_execution(const std::string& text, SimOptions& sim) {
  const std::size_t dots = text.find("..");
  const std::int64_t lo = dots == std::string::npos ? -1 : parse_factor_ppm(text.substr(0, dots));
  const std::int64_t hi = dots == std::string::npos ? -1 : parse_factor_ppm(text.substr(dots + 2));
  if (lo < 0 || hi < 0 || lo > hi || hi > kMaxExecutionPpm) {
    throw command_line_error("--execution", text,
                             "expected LO..HI, factors of the declared work with 0 <= LO <= HI "
                             "<= 10 (e.g. 0.5..1)");
  }
  sim.execution_min_ppm = lo;
  sim.execution_max_ppm = hi;
}

// parse_seed reads --seed: a decimal integer in [0, 2^64).
std::uint64_t parse_seed(const std::string& text) {
  std::size_t used = 0;
  try {
    if (text.empty() || text.front() == '-' || text.front() == '+') throw std::invalid_argument("");
    const unsigned long long v = std::stoull(text, &used, 10);
    if (used != text.size()) throw std::invalid_argument("");
    return v;
  } catch (const std::exception&) {
    throw command_line_error("--seed", text, "expected an integer in [0, 2^64)");
  }
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
  SimOptions sim;
  if (!o.horizon.empty()) sim.horizon_ns = parse_horizon(o.horizon).count();
  // A profile given for planning is also injected: the simulation then checks that what the
  // planners charge for it is accounted for (docs/internals/simulation.md, "Overheads").
  sim.overhead = planning.options.overhead;
  if (!o.overhead_statistic.empty()) {
    sim.overhead_statistic = parse_overhead_statistic(o.overhead_statistic);
    if (sim.overhead == nullptr) {
      throw command_line_error("--overhead-statistic", o.overhead_statistic,
                               "needs --overhead FILE (the profile to take it from)");
    }
  }
  if (!o.seed.empty()) sim.seed = parse_seed(o.seed);
  if (!o.context_switch.empty()) sim.context_switch_ns = parse_context_switch(o.context_switch);
  if (!o.execution.empty()) parse_execution(o.execution, sim);
  if (!o.team_model.empty()) {
    if (o.team_model != "greedy" && o.team_model != "centralized" && o.team_model != "steal") {
      throw command_line_error("--team-model", o.team_model,
                               "expected greedy, centralized or steal");
    }
    sim.team_model = o.team_model == "centralized" ? TeamModel::centralized
                     : o.team_model == "steal"     ? TeamModel::steal
                                                   : TeamModel::greedy;
  }
  const bool steal = sim.team_model == TeamModel::steal;
  for (const auto& [text, flag, field] :
       {std::tuple{&o.steal_cost, "--steal-cost", &sim.steal_cost_ns},
        std::tuple{&o.steal_attempt, "--steal-attempt", &sim.steal_attempt_ns},
        std::tuple{&o.spawn_cost, "--spawn-cost", &sim.spawn_cost_ns}}) {
    if (text->empty()) continue;
    *field = parse_cost(flag, *text);
    if (!steal) throw command_line_error(flag, *text, "needs --team-model steal");
  }
  if (steal && sim.steal_attempt_ns == 0) {
    throw command_line_error("--steal-attempt", o.steal_attempt,
                             "must be > 0 with --team-model steal (e.g. 200ns)");
  }
  if (!o.queue_lock.empty()) {
    if (o.queue_lock.front() == '-') {
      throw command_line_error("--queue-lock", o.queue_lock, "must be >= 0");
    }
    try {
      sim.queue_lock_ns = parse_duration(o.queue_lock).count();
    } catch (const std::invalid_argument& e) {
      throw command_line_error("--queue-lock", o.queue_lock, e.what());
    }
    if (sim.queue_lock_ns > 0 && sim.team_model != TeamModel::centralized) {
      throw command_line_error("--queue-lock", o.queue_lock,
                               "needs --team-model centralized (the greedy model has no queue)");
    }
  }
  return sim;
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
  app.add_option("--horizon", opts->horizon,
                 "Release jobs for this long, e.g. 100ms (default: one hyperperiod, at most 10s)")
      ->type_name("D")
      ->check(non_empty());
  app.add_flag("--json", opts->json, "Print the simulation as JSON on stdout");
  add_planning_flags(app, opts->planning, /*allow_all=*/true);
  app.add_option("--overhead-statistic", opts->overhead_statistic,
                 "Value of each injected overhead: p50, p99, p99.9 (default), max, or sampled "
                 "(drawn per instance from the --overhead profile)")
      ->type_name("S")
      ->check(non_empty());
  app.add_option("--seed", opts->seed, "Seed of the sampled overheads (default 0)")
      ->type_name("N")
      ->check(non_empty());
  app.add_option("--context-switch", opts->context_switch,
                 "Execution added to a preempted thread when it resumes, e.g. 5us (default 0)")
      ->type_name("D")
      ->check(non_empty());
  app.add_option("--execution", opts->execution,
                 "Stochastic execution: each node's work per job drawn uniformly in LO..HI times "
                 "the declared work, e.g. 0.5..1 (default 1..1; uses --seed)")
      ->type_name("LO..HI")
      ->check(non_empty());
  app.add_option("--team-model", opts->team_model,
                 "How team threads share eligible nodes: greedy (default), centralized (one "
                 "FIFO queue behind one lock, see --queue-lock) or steal (randomized work "
                 "stealing, see --steal-cost, --steal-attempt, --spawn-cost)")
      ->type_name("MODEL")
      ->check(non_empty());
  app.add_option("--steal-cost", opts->steal_cost,
                 "Steal model: time a successful steal adds to the thief's piece, e.g. 1us")
      ->type_name("D")
      ->check(non_empty());
  app.add_option("--steal-attempt", opts->steal_attempt,
                 "Steal model: length of a failed steal attempt before the next (> 0, required)")
      ->type_name("D")
      ->check(non_empty());
  app.add_option("--spawn-cost", opts->spawn_cost,
                 "Steal model: time per node a completion makes eligible, on the thread that "
                 "completes it")
      ->type_name("D")
      ->check(non_empty());
  app.add_option("--queue-lock", opts->queue_lock,
                 "Centralized model: the queue lock's hold time per enqueue and dequeue, e.g. 2us")
      ->type_name("D")
      ->check(non_empty());
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
      const Plan plan = plan_with(kind, set, planning->options);
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
      text += fmt::format("planner  {}  (plan: {})\n", to_string(kind),
                          plan.schedulable ? "SCHEDULABLE" : "NOT SCHEDULABLE");
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
