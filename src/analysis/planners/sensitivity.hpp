// sensitivity.hpp — the parts of analyse_sensitivity (rtpar/tools/planners.hpp) that tests reach
// directly: how a task is scaled, and which planners are monotone in C.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

// scaled_task is `task` with its code `factor`/kSensitivityScale times as long: every segment or
// node length (or, without structure, C and L) multiplied by the factor and rounded up to the
// nanosecond, C and L recomputed from the structure, so the copy passes the model's rules (C and
// L equal the structure's sums; L ≤ C; a sequential task stays sequential). Rounding up makes
// the scaled C and L at least factor·C and factor·L: an admission at the factor is sound for the
// exact product. nullopt when a length or sum would not fit in int64 nanoseconds (a task that
// long is refused by every planner).
std::optional<TaskSpec> scaled_task(const TaskSpec& task, std::int64_t factor);

// span_limit is the smallest factor at which the scaled span of `task` exceeds its deadline
// (⌊D·10^6/L⌋ + 1, since the scaled span is at least ⌈L·factor/10^6⌉), saturated at int64: from
// there on no schedule can meet the task's deadline, so every sound planner refuses the set.
std::int64_t span_limit(const TaskSpec& task);

// MonotoneVerdict says whether a planner's verdict is monotone in C (a larger C never turns a
// refusal into an admission), and why, in one sentence for the outputs.
struct MonotoneVerdict {
  bool monotone = false;
  std::string why;
};

// monotone_in_work is the verdict for `planner`, argued in docs/analysis.md "Sensitivity":
// partitioned is monotone (the file fixes places and priorities, and each of its tests grows with
// every C); the federated planners, decomposition and fork-join-rta place tasks with heuristics
// (first-fit, FBB-FFD, the greedy core search) whose outcome can improve when a C grows.
MonotoneVerdict monotone_in_work(PlannerKind planner);

}  // namespace rtpar::analysis
