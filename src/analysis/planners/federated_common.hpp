// federated_common.hpp — the planner both federated variants share.
//
// federated and federated-ws differ only in how a heavy task's core count n (and the bound
// reported for it) is computed; that part is passed in as a HeavySizer. Everything else —
// classification, dedicated cores, first-fit of light tasks, reasons and notes — is here.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "analysis/bounds/server_interference.hpp"

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

// HeavySizing is what a planner's formula says about one heavy task.
struct HeavySizing {
  int cores_needed = 0;                           // n (0 when no number of cores suffices)
  std::optional<std::int64_t> response_bound_ns;  // worst-case bound on n cores, if one exists
  std::optional<double> expected_response_ns;     // bound on E[R] on n cores, if one exists
  std::optional<std::string> infeasible;          // why no n works; then the other fields are unset
};

// HeavySizer computes the HeavySizing of one validated heavy task (C > D).
using HeavySizer = std::function<HeavySizing(const TaskSpec&)>;

// plan_federated_family is the planner both federated variants share: it validates the task
// parameters (model::check_task_parameters: InputError naming task[i].field), classifies heavy (C >
// D) and light, sizes heavy tasks with `size_heavy`, gives them dedicated cores in file order
// (lowest-numbered free cores first), first-fits the light tasks on the rest and assembles the Plan
// with reasons and notes. With `server` (the kernel's server, charged) the light tasks are placed
// with it above them on every core (first_fit_light's `above`: server_rta_tasks with a horizon of
// the largest light deadline), so first-fit moves on to the next core where it no longer fits;
// a federated heavy task gets the least n' ≥ n cores whose bound with the server,
// L + ⌈(C − L)/n'⌉ + n'·I(R), is ≤ D (dag_response_with_server), and is charged again with them
// afterwards (interference_charge.hpp; same bound).
Plan plan_federated_family(const TaskSet& set, PlannerKind kind, const HeavySizer& size_heavy,
                           const std::optional<PeriodicServer>& server = std::nullopt);

// federated_sizer is federated's HeavySizer (Li et al. ECRTS'14 core count and Graham's bound).
HeavySizer federated_sizer();

// federated_ws_sizer is federated-ws's HeavySizer (RTWS eq. 3 with system.delta). Throws
// InputError for a delta the arithmetic cannot represent.
HeavySizer federated_ws_sizer(const SystemSpec& system);

// plan_federated_server is plan_federated with the kernel's server placed with the light tasks
// (nullopt: plan_federated itself).
Plan plan_federated_server(const TaskSet& set, const std::optional<PeriodicServer>& server);

// plan_federated_ws_server is plan_federated_ws with the kernel's server placed with the light
// tasks (nullopt: plan_federated_ws itself).
Plan plan_federated_ws_server(const TaskSet& set, const std::optional<PeriodicServer>& server);

}  // namespace rtpar::analysis
