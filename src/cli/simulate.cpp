// simulate.cpp — `rtpar simulate FILE`: plan, then simulate the plan (see simulate.hpp).
#include "cli/simulate.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

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

struct SimulateOptions {
  std::string file;
  std::string horizon;  // empty: the default (hyperperiod, capped)
  bool json = false;
  PlanningFlags planning;
};

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
  return [opts]() {
    const TaskSet set = load_taskset(opts->file);
    const std::unique_ptr<Planning> planning = resolve_planning(opts->planning, set);
    SimOptions sim;
    if (!opts->horizon.empty()) sim.horizon_ns = parse_horizon(opts->horizon).count();
    // A profile given for planning is also injected: the simulation then checks that what the
    // planners charge for it is accounted for (docs/internals/simulation.md, "Overheads").
    sim.overhead = planning->options.overhead;
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
      const std::string injected =
          sim.overhead != nullptr
              ? fmt::format("overheads injected from {}\n", opts->planning.overhead)
              : std::string();
      fmt::print("{}{}{}", resolved_kernels_text(set), injected, text);
    }
    const bool placed = planning->all ? any_complete : every_complete;
    return misses == 0 && placed ? kExitOk : kExitFail;
  };
}

}  // namespace rtpar::cli
