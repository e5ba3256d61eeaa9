// planner.cpp — plan_taskset / plan_with: the entry points that pick a planner.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bounds/light_first_fit.hpp"
#include "analysis/planners/chain_charge.hpp"
#include "analysis/planners/federated_common.hpp"
#include "analysis/planners/federated_overheads.hpp"
#include "analysis/planners/interference_charge.hpp"
#include "analysis/planners/measured_inputs.hpp"
#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/topology.hpp"

namespace rtpar {

namespace {

// on_target is the set as it would be on `target`: its cores and sockets become the target's and
// nothing is reserved for non-real-time work (the target is a machine described from outside).
TaskSet on_target(const TaskSet& set, const Topology& target) {
  TaskSet copy = set;
  copy.system.cores = target.cpus();
  copy.system.cores_from_count = true;
  copy.system.sockets = static_cast<int>(std::max<std::size_t>(target.sockets.size(), 1));
  copy.system.nonrt_cores.clear();
  return copy;
}

// federated_inputs is the set a federated planner analyses: charged the overhead profile's costs
// (--overhead), with the notes saying so (measured values were applied before, by plan_with).
TaskSet federated_inputs(PlannerKind planner, const TaskSet& set, const PlanOptions& options,
                         std::vector<std::string>& notes) {
  TaskSet out = set;
  if (options.overhead != nullptr) {
    analysis::FederatedOverheads config;
    config.profile = options.overhead;
    config.size_heavy = planner == PlannerKind::federated
                            ? analysis::federated_sizer()
                            : analysis::federated_ws_sizer(out.system);
    config.cores = static_cast<int>(analysis::realtime_cores(out.system).size());
    config.system = &set.system;
    // federated with the kernel's server may give a heavy task more cores than its sizing
    // (federated_common.hpp), so its team is charged as the whole machine.
    config.whole_machine =
        planner == PlannerKind::federated && analysis::charged_server(options, set).has_value();
    out = analysis::with_federated_overheads(out, config, notes);
  }
  return out;
}

// plan_uncharged runs the planner; plan_with then charges the kernel's interference once, on
// `analysed` when set: the set as the planner analysed it (the federated planners' inputs, or
// the target's copy), else on the set given (no copy for the other planners).
Plan plan_uncharged(PlannerKind planner, const TaskSet& set, const PlanOptions& options,
                    std::optional<TaskSet>& analysed) {
  // The federated planners and partitioned read the machine from the set only; give them the
  // target's cores. decomposition and fork-join-rta read options.target themselves (sockets).
  if (options.target != nullptr &&
      (planner == PlannerKind::federated || planner == PlannerKind::federated_ws ||
       planner == PlannerKind::partitioned)) {
    PlanOptions rest = options;
    rest.target = nullptr;
    analysed = on_target(set, *options.target);
    const TaskSet copy = *analysed;
    return plan_uncharged(planner, copy, rest, analysed);
  }
  switch (planner) {
    // A charged kernel server is placed with the light tasks (federated_common.hpp).
    case PlannerKind::federated:
    case PlannerKind::federated_ws: {
      std::vector<std::string> notes;
      analysed = federated_inputs(planner, set, options, notes);
      const auto server = analysis::charged_server(options, set);
      Plan plan = planner == PlannerKind::federated
                      ? analysis::plan_federated_server(*analysed, server)
                      : analysis::plan_federated_ws_server(*analysed, server);
      plan.notes.insert(plan.notes.begin(), notes.begin(), notes.end());
      return plan;
    }
    case PlannerKind::decomposition:
      return plan_decomposition(set, options);
    case PlannerKind::fork_join_rta:
      return plan_fork_join_rta(set, options);
    case PlannerKind::partitioned:
      return plan_partitioned(set, options);
  }
  // Only reachable with a PlannerKind value cast from outside the enum.
  throw InputError(set.system.where, "system.planner",
                   "unknown planner " + std::to_string(static_cast<int>(planner)));
}

// unused_keys_notes says, for a planner other than partitioned, which tasks give `places` or
// `threads`, keys only the partitioned planner reads: the plan then places those tasks itself, and
// a user must not believe the file's placement was taken (docs/taskset.md, "places and threads").
void unused_keys_notes(PlannerKind planner, const TaskSet& set, Plan& plan) {
  if (planner == PlannerKind::partitioned) return;
  std::vector<std::string> named;
  for (const TaskSpec& t : set.tasks) {
    if (!t.places.empty() || t.threads > 0) named.push_back("'" + t.name + "'");
  }
  if (named.empty()) return;
  std::string list;
  for (std::size_t k = 0; k < named.size() && k < 8; ++k) list += (k ? ", " : "") + named[k];
  if (named.size() > 8) list += ", … (" + std::to_string(named.size()) + " tasks)";
  plan.notes.push_back("`places` and `threads` are read by the partitioned planner only; the " +
                       std::string(to_string(planner)) + " planner chose the cores of " + list +
                       " itself (planner = \"partitioned\" keeps the file's placement)");
}

}  // namespace

Plan plan_with(PlannerKind planner, const TaskSet& set, const PlanOptions& options) {
  if (options.measured != nullptr) {
    // Measured work and span replace the declared ones where larger, for every planner (RTWS
    // §V-B: federated-ws takes the burdened span). The planners that place a structure get it
    // scaled; the others plan from C and L alone (measured_inputs.hpp).
    const auto rule = planner == PlannerKind::decomposition || planner == PlannerKind::fork_join_rta
                          ? analysis::StructureRule::scale
                          : analysis::StructureRule::drop;
    std::vector<std::string> notes;
    const TaskSet raised = analysis::with_measured(set, *options.measured, rule, notes);
    PlanOptions rest = options;
    rest.measured = nullptr;
    Plan plan = plan_with(planner, raised, rest);
    plan.notes.insert(plan.notes.begin(), notes.begin(), notes.end());
    return plan;
  }
  std::optional<TaskSet> analysed;
  Plan plan = plan_uncharged(planner, set, options, analysed);
  analysis::charge_interference(plan, analysed ? *analysed : set, options);
  unused_keys_notes(planner, set, plan);
  if (set.system.shared_wait && planner != PlannerKind::fork_join_rta) {
    plan.notes.push_back(std::string("[system] shared_wait is read by fork-join-rta only: the ") +
                         to_string(planner) + " planner charges and runs each task's own `wait`");
  }
  analysis::bound_chains(plan, set);
  if (options.force_place && planner != PlannerKind::decomposition) {
    plan.notes.push_back(
        "force_place is ignored: only decomposition places what its test "
        "refuses (" +
        std::string(to_string(planner)) + " places as without it)");
  }
  return plan;
}

Plan plan_taskset(const TaskSet& set, const PlanOptions& options) {
  return plan_with(set.system.planner, set, options);
}

}  // namespace rtpar
