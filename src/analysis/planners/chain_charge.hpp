// chain_charge.hpp — the chains of a plan: their latency bounds and, with max_age, their verdict.
#pragma once

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// bound_chains fills plan.chains (one per set.chains, same order) from the tasks' periods and the
// plan's response bounds (chain_latency.hpp). A chain whose task has no worst-case bound gets a
// reason instead of numbers; a chain with max_age whose data-age bound exceeds it, or has none,
// makes the plan not schedulable, with a note naming the chain.
void bound_chains(Plan& plan, const TaskSet& set);

}  // namespace rtpar::analysis
