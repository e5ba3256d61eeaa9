// rtpar/plan.hpp — the Plan: admission control's verdict and the executor's only input on policy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar {

// TaskPlan is one task's placement: its cores, its SCHED_FIFO priority and what the analysis says.
struct TaskPlan {
  std::string name;
  bool heavy = false;        // C > D: needs parallelism and gets dedicated cores
  std::vector<int> cores;    // assigned CPU ids (heavy: dedicated; light: exactly one)
  int priority = 0;          // SCHED_FIFO priority (heavy above light, DM, distinct per core)
  double utilization = 0.0;  // C/T
  int cores_needed = 0;      // cores the analysis asks for (heavy: n; light: 1)
  std::optional<std::int64_t> response_bound_ns;  // worst-case response bound when one exists
  std::optional<double> expected_response_ns;     // federated-ws: bound on E[R] (rtws.md §V-B)
  std::optional<std::string> reason;              // why it is not schedulable (null when it is)
};

// Plan is the central artifact: everything the executor needs, decided offline.
struct Plan {
  bool schedulable = false;
  PlannerKind planner = PlannerKind::federated;
  std::vector<int> cores;          // real-time cores available to the planner (ascending)
  std::vector<TaskPlan> tasks;     // same order as TaskSet::tasks
  std::vector<std::string> notes;  // plan-wide remarks (e.g. cores missing in total)
};

// plan_taskset runs the planner named by set.system.planner. It never touches threads.
Plan plan_taskset(const TaskSet& set);

// plan_federated implements Li et al. ECRTS'14 federated scheduling (docs/analysis.md).
Plan plan_federated(const TaskSet& set);

// plan_federated_ws implements federated scheduling with work-stealing overhead (rtws.md §V-B).
Plan plan_federated_ws(const TaskSet& set);

}  // namespace rtpar
