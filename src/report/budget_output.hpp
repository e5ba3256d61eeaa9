// budget_output.hpp — what the run outputs say about budgets (docs/reliability.md, "Budgets"):
// the JSON fields of one task and the budget table of the summary. Kept apart from run_output.cpp
// so that the run report's other parts change independently.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rtpar/report.hpp"

namespace rtpar::report {

// overrun_misses counts the recorded jobs of `run` that missed their deadline and overran their
// own budget: misses the task caused itself, as opposed to those it suffered.
std::int64_t overrun_misses(const TaskRun& run);

// add_budget_json adds a task's budget fields to its entry of "tasks": budget, budget_ns,
// overruns, max_overrun_ns, demoted_ns, overrun_misses (and budget_note, hung_job when there is
// one).
void add_budget_json(nlohmann::ordered_json& task, const TaskRun& run);

// budget_table is the summary's budget section: one row per task with a budget, the tasks that
// overran marked; empty when no task has a budget.
std::string budget_table(const std::vector<TaskStats>& stats, const std::vector<TaskRun>& runs);

}  // namespace rtpar::report
