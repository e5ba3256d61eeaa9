// federated_overheads.hpp — a task set with the measured overheads of a profile charged for the
// federated planners (`--overhead FILE`; docs/analysis.md, "Overhead profiles").
#pragma once

#include <string>
#include <vector>

#include "analysis/planners/federated_common.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar::analysis {

// FederatedOverheads configures with_federated_overheads.
struct FederatedOverheads {
  const OverheadProfile* profile = nullptr;  // the measured costs (required)
  HeavySizer size_heavy;                     // the planner's heavy-task sizing
  int cores = 0;                             // real-time cores of the machine analysed
  // whole_machine charges every heavy task for a team of all `cores` (needed when the planner may
  // later raise a task's core count beyond its sizing, as federated does with the kernel's
  // server).
  bool whole_machine = false;
  // system gives the budget modes and margin charged with the profile (budget_charge); nullptr:
  // no budget charge.
  const SystemSpec* system = nullptr;
};

// with_federated_overheads copies `set` with every task's C and L raised by its JobCharge
// (overhead_charge.hpp), one note per task appended to `notes`:
//  * light (C ≤ D, and still C + release(1) ≤ D): release latency of a team of 1, once per job;
//  * otherwise (heavy, or made heavy by its release latency): release latency + one fork/join per
//    parallel region for a team of n, where n is the least fixed point of "size the charged task":
//    starting from n = max(2, uncharged sizing), the task is charged for a team of ≤ n and resized
//    until its size n' ≤ n (the charges only grow with n, and the sizing with the charges, so n
//    only grows; it stops at `cores`). The planner then sizes the charged copy to n' ≤ n cores,
//    and charges for ≤ n members bound those of its n' (overhead_up_to is monotone).
// Throws InputError (exit 2) when the profile cannot bound a charge (overhead_up_to).
TaskSet with_federated_overheads(const TaskSet& set, const FederatedOverheads& config,
                                 std::vector<std::string>& notes);

}  // namespace rtpar::analysis
