// measured_inputs.hpp — a task set with its declared work and span raised to measured values.
#pragma once

#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

// StructureRule is what with_measured does with a task's structure ([[task.segment]], the
// segments kernel, [[task.node]]) when its C or L changes: the model requires C and L to equal the
// structure's sums, so the copy cannot keep it unchanged.
enum class StructureRule {
  drop,   // the planner sizes tasks from C and L alone (federated, federated-ws, partitioned)
  scale,  // the planner places the structure (decomposition, fork-join-rta): every length × f
};

// with_measured copies set, raising each measured task's span L to max(L, measured burdened span
// L̂, measured span bound) and its work C to max(C, measured work, the new L), and appends one note
// per task it changed or could not find to `notes`. Taking the maximum keeps the analysis
// conservative: a short measurement run cannot lower what the user declared (RTWS §V-B sizes
// cores with the burdened span L̂). A sequential task (no structure, C = L declared) stays
// sequential: L rises with C. A task with a structure whose C or L changes loses it
// (StructureRule::drop) or has every segment or node length multiplied by the one factor
// f = max(C'/C, L'/L), rounded up to the nanosecond (StructureRule::scale), so that both sums are
// at least the measured values. The measured work is the CPU work on one core when measured
// (rtpar profile), else the online work (wall-clock, summed over the workers: preemption inflates
// it).
TaskSet with_measured(const TaskSet& set, const MeasuredProfile& measured, StructureRule rule,
                      std::vector<std::string>& notes);

// with_measured is with_measured(set, measured, StructureRule::drop, notes) (federated-ws).
TaskSet with_measured(const TaskSet& set, const MeasuredProfile& measured,
                      std::vector<std::string>& notes);

}  // namespace rtpar::analysis
