// measured.hpp — a task set with its declared work and span raised to measured values.
#pragma once

#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

// with_measured copies set, raising each measured task's span L to max(L, measured burdened span
// L̂) and its work C to max(C, measured work, the new L), and appends one note per task it changed
// or could not find to `notes`. Taking the maximum keeps the analysis conservative: a short
// measurement run cannot lower what the user declared (rtws.md §V-B sizes cores with the burdened
// span L̂). A task whose C or L changes loses its structure (segments or DAG) in the copy: only
// federated-ws reads the copy, and it sizes tasks from C and L̂ alone.
TaskSet with_measured(const TaskSet& set, const MeasuredProfile& measured,
                      std::vector<std::string>& notes);

}  // namespace rtpar::analysis
