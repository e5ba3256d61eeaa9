// chain_replay.hpp — the cause-effect chains of a simulated schedule (`rtpar simulate`).
#pragma once

#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar::sim {

// replay_chains measures every chain of `set` in a simulated schedule from its tasks' recorded
// jobs (SimTaskResult::jobs_log, TaskSet order): implicit communication, as the bounds assume
// (docs/analysis.md, "Cause-effect chains") — a job reads its inputs at its release and
// publishes its output at its finish, the first task's job stamping its release as the origin,
// each later job forwarding the origin of the newest value published on its input link by its
// release. Reading at the release is the oldest value a job may use, so the ages are those of
// the worst reading instant in the schedule. One ChainMeasure per chain, file order, with the
// plan's bounds.
std::vector<ChainMeasure> replay_chains(const TaskSet& set, const Plan& plan,
                                        const std::vector<SimTaskResult>& tasks);

}  // namespace rtpar::sim
