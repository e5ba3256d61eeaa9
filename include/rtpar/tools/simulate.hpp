// rtpar/tools/simulate.hpp — discrete-event simulation of a Plan: every job runs for exactly its
// declared work (plus, with SimOptions::overhead, the overheads the planners charge), on the
// threads, cores and priorities the plan gives it. It answers "does this placement meet its
// deadlines in one concrete worst-case-length schedule?" for any machine size (`rtpar simulate`),
// and cross-checks the planners' analyses in the tests. The execution model (which schedule is
// simulated and why) is in docs/internals/simulation.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar {

// SimOptions bounds a simulation.
struct SimOptions {
  // horizon_ns: jobs are released in [0, horizon_ns); absent means default_sim_horizon.
  std::optional<std::int64_t> horizon_ns;
  // max_horizon_ns caps the default horizon (a hyperperiod can be astronomically long).
  std::int64_t max_horizon_ns = 10'000'000'000;  // 10 s of simulated time
  // record_jobs keeps every job's release and finish in SimTaskResult::jobs.
  bool record_jobs = false;
  // max_jobs bounds the jobs released over the horizon, summed over the tasks, so that a
  // simulation ends in reasonable time: an explicit horizon that releases more is refused
  // (InputError, field "--horizon"); the default horizon is shortened to fit (and marked capped).
  std::int64_t max_jobs = 100'000'000;
  // overhead: when set, every job also executes the overheads the planners charge from this
  // profile, at the same p99.9 values (docs/internals/simulation.md, "Overheads"), so that the
  // simulation checks their accounting; null: no overheads, every job runs its declared work.
  const OverheadProfile* overhead = nullptr;
};

// released_jobs is the number of jobs the set releases in [0, horizon_ns): Σ_i ⌈(horizon −
// φ_i)/T_i⌉ over the tasks with φ_i < horizon, saturated at INT64_MAX.
std::int64_t released_jobs(const TaskSet& set, std::int64_t horizon_ns);

// SimHorizon is the release window default_sim_horizon picks and whether the cap shortened it.
struct SimHorizon {
  std::int64_t horizon_ns = 0;
  bool capped = false;  // the exact window (below) exceeded SimOptions::max_horizon_ns
};

// default_sim_horizon is one hyperperiod H = lcm(T_i) when every phase is 0 (synchronous
// release: the pattern then repeats every H), else max phase + 2H (Leung & Merrill 1980: the
// window after which an asynchronous periodic schedule repeats). Capped at max_horizon_ns, but
// never below max phase + the longest period so that every task releases at least once.
SimHorizon default_sim_horizon(const TaskSet& set, std::int64_t max_horizon_ns);

// SimJob is one simulated job.
struct SimJob {
  std::int64_t release_ns = 0;
  std::int64_t finish_ns = -1;  // -1: not finished when the simulation stopped
  bool missed = false;          // finished after release + D, or unfinished past it
};

// SimTaskResult is one task's outcome, in TaskSet order.
struct SimTaskResult {
  std::string name;
  bool simulated = false;      // false: the plan gives the task no threads (it was not placed)
  std::int64_t jobs = 0;       // jobs released (skipped releases excluded)
  std::int64_t completed = 0;  // jobs finished before the simulation stopped
  std::int64_t misses = 0;     // jobs that finished late or were unfinished past their deadline
  std::int64_t skipped = 0;    // releases dropped under overrun = "skip"
  std::optional<std::int64_t> max_response_ns;    // largest finish − release of completed jobs
  std::optional<std::int64_t> response_bound_ns;  // the plan's bound, copied for comparison
  std::int64_t deadline_ns = 0;
  std::vector<SimJob> jobs_log;  // every job, when SimOptions::record_jobs
};

// SimResult is the outcome of simulate_plan.
struct SimResult {
  PlannerKind planner = PlannerKind::federated;
  bool plan_schedulable = false;
  std::int64_t horizon_ns = 0;  // releases happen in [0, horizon_ns)
  bool horizon_capped = false;  // the default horizon was shortened by max_horizon_ns
  std::int64_t end_ns = 0;      // when the simulation stopped (all released jobs done, or cut)
  std::int64_t events = 0;      // scheduling decisions taken (a measure of the simulation's cost)
  std::vector<SimTaskResult> tasks;
  std::int64_t misses = 0;  // sum over the tasks
};

// simulate_plan runs the plan's tasks from time 0: task i releases a job at phase_i + k·T_i for
// every such instant before the horizon, and the simulation continues until every released job
// has finished or the last deadline has passed. Deterministic. Tasks the plan did not place are
// reported with simulated = false. Throws InputError if the horizon is not positive.
SimResult simulate_plan(const Plan& plan, const TaskSet& set, const SimOptions& options = {});

// simulation_json renders the `rtpar simulate --json` document (schema: docs/cli.md).
std::string simulation_json(const SimResult& result);

// simulation_table renders the per-task simulation summary for people.
std::string simulation_table(const SimResult& result);

}  // namespace rtpar
