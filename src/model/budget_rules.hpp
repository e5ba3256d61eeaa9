// budget_rules.hpp — which budget mode a task runs with: its own `budget`, else [system] budget,
// else the default rule (docs/reliability.md, "Budgets"). Model-level, so that the executor, the
// reports and the docs' rule are one function.
#pragma once

#include <cstddef>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// plan_cores_of is every CPU the plan gives task i's threads: its cores, its threads' cores and
// its strands' cores, ascending and distinct.
std::vector<int> plan_cores_of(const Plan& plan, std::size_t i);

// shares_core says whether a thread of task i runs on a core where a thread of another task of the
// plan runs too: then an overrun of i delays that task, which its own analysis did not allow for.
bool shares_core(const Plan& plan, std::size_t i);

// effective_budget is task i's budget mode: TaskSpec::budget, else SystemSpec::budget, else
// enforce when the task shares a core with another task and monitor when its cores are its own
// (there an overrun can only make the task itself late, which enforcement would not prevent).
BudgetMode effective_budget(const TaskSet& set, const Plan& plan, std::size_t i);

}  // namespace rtpar::model
