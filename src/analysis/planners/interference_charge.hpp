// interference_charge.hpp — charging the kernel's interference (PlanOptions::interference) to the
// bounds of a finished plan, for the planners whose bounds do not see it themselves.
//
// federated: a heavy task's bound becomes the fixed point of dag_response_with_server on its
// dedicated cores; light tasks were already placed with the server as the highest-priority task
// (server_rta_tasks, plan_federated_family). federated-ws: the same for light tasks; the heavy
// tasks' expected bound grows by m·I(D). partitioned, decomposition and fork-join-rta charge it
// inside their own analyses (charged_server): partitioned in its response bounds, decomposition
// in the load condition (fbb_ffd.hpp), fork-join-rta in the stage RTA (fork_join_stage_rta.hpp);
// here they only get the note.
#pragma once

#include <optional>

#include "analysis/bounds/server_interference.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

// charged_server is the server the planners must charge for `set`: the kernel's interference when
// its state is "charged" with a budget, the overhead profile's measured supply loss
// (supply_server) when it has one, both together (combined_server), or nullopt.
std::optional<PeriodicServer> charged_server(const PlanOptions& options, const TaskSet& set);

// charge_interference records options.interference in plan.interference and, when it is charged,
// applies it to the plan's bounds as the file comment says; a task whose bound then exceeds its
// deadline gets a reason and the plan is no longer schedulable. Called once per plan by plan_with.
void charge_interference(Plan& plan, const TaskSet& set, const PlanOptions& options);

}  // namespace rtpar::analysis
