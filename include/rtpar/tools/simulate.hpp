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
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/sim_kinds.hpp"

namespace rtpar {

// kExecutionPpm is the factor 1 of SimOptions' execution range (parts per million).
inline constexpr std::int64_t kExecutionPpm = 1'000'000;
// kMaxExecutionPpm bounds the execution range's upper factor: 10 × the declared work.
inline constexpr std::int64_t kMaxExecutionPpm = 10 * kExecutionPpm;

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
  // (InputError, field "horizon"); the default horizon is shortened to fit (and marked capped).
  std::int64_t max_jobs = 100'000'000;
  // overhead: when set, every job also executes the overheads the planners charge from this
  // profile, at the same p99.9 values (docs/internals/simulation.md, "Overheads"), so that the
  // simulation checks their accounting; null: no overheads, every job runs its declared work.
  const OverheadProfile* overhead = nullptr;
  // overhead_statistic: which value of the profile each injected overhead takes. p999 (the
  // default) is what the planners charge; `sampled` draws every instance (each release, fork,
  // barrier of each job) from the profile's distribution with `seed`. Ignored without `overhead`.
  OverheadStatistic overhead_statistic = OverheadStatistic::p999;
  // seed: the random streams of `sampled`. A draw is a function of (seed, task index in the set,
  // job index, instance index in the job) only, so results never depend on the order of events.
  std::uint64_t seed = 0;
  // context_switch_ns: execution added to a preempted thread when it resumes, once per
  // preemption (the save/restore and cache refill of being switched out). ≥ 0; 0: none.
  std::int64_t context_switch_ns = 0;
  // execution_min_ppm, execution_max_ppm: stochastic execution. Each node's work (its declared
  // length, injected overheads excluded) is, per job, the declared length times a factor drawn
  // uniformly in [min, max] parts per million (kExecutionPpm = the declared length), from the
  // `seed` streams like the sampled overheads (a function of seed, task, job and node only).
  // Both kExecutionPpm (the default): every job runs its declared work. 0 ≤ min ≤ max ≤
  // kMaxExecutionPpm.
  std::int64_t execution_min_ppm = kExecutionPpm;
  std::int64_t execution_max_ppm = kExecutionPpm;
  // team_model: how team threads share their job's eligible nodes (TeamModel); queue_lock_ns:
  // the centralized queue's lock hold time per enqueue and per dequeue (≥ 0; 0 with greedy).
  TeamModel team_model = TeamModel::greedy;
  std::int64_t queue_lock_ns = 0;
  // queue_contention_ns: added to each centralized hold per other worker holding or waiting for
  // the lock (a spin lock's cache-line handoff, RTWS Table I type 1); queue_grain_ns > 0: a node of
  // length L stands for ⌈L/grain⌉ real tasks, each paying its hold (src/sim/node_queue.hpp).
  std::int64_t queue_contention_ns = 0;
  std::int64_t queue_grain_ns = 0;
  // The steal model's costs (≥ 0; each refused with another model): steal_cost_ns is added to
  // the piece of a successful steal; steal_attempt_ns is a failed attempt's length, after which
  // the thief tries again (> 0 under steal, so that time advances); spawn_cost_ns is spent by a
  // thread per node its completion enables, before those nodes are pushed on its deque.
  std::int64_t steal_cost_ns = 0;
  std::int64_t steal_attempt_ns = 0;
  std::int64_t spawn_cost_ns = 0;
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
  std::int64_t preemptions = 0;  // times one of its threads was switched out holding work
  // relative_response_sum: Σ (finish − release) / D over the completed jobs (for the mean).
  double relative_response_sum = 0;
};

// SimLockResult is what the simulation saw of one `lock` channel (ChannelKind::lock), in the
// set's channel order: its protocol, how many sections ran, and the longest wait (MSRP spin from
// request to grant; 0 under the local priority ceiling, where a request never waits) and hold
// (grant to release, wall time: a local section preempted by a task above the ceiling counts the
// preemption).
struct SimLockResult {
  std::string name;
  bool global = false;        // MSRP (users on ≥ 2 cores or parallel); false: local ceiling
  std::int64_t hold_ns = 0;   // ChannelSpec::hold
  std::int64_t sections = 0;  // sections granted
  std::int64_t max_wait_ns = 0;
  std::int64_t max_hold_ns = 0;
};

// SimMetrics are the RTWS §VII measures of a task or a set: the deadline miss ratio (misses /
// released jobs, skipped releases excluded) and the relative response (response / deadline) of
// the completed jobs, mean and max; nullopt when there is nothing to take them over.
struct SimMetrics {
  std::int64_t jobs = 0;
  std::int64_t misses = 0;
  std::optional<double> miss_ratio;              // misses / jobs; nullopt for 0 jobs
  std::optional<double> mean_relative_response;  // over completed jobs; nullopt for none
  std::optional<double> max_relative_response;   // over completed jobs; nullopt for none
};

// task_metrics computes one task's SimMetrics (all nullopt for a task that was not simulated).
SimMetrics task_metrics(const SimTaskResult& task);

// SimResult is the outcome of simulate_plan.
struct SimResult {
  PlannerKind planner = PlannerKind::federated;
  bool plan_schedulable = false;
  // plan_force_placed is Plan::force_placed: refused, placed anyway (--force-place).
  bool plan_force_placed = false;
  std::int64_t horizon_ns = 0;  // releases happen in [0, horizon_ns)
  bool horizon_capped = false;  // the default horizon was shortened by max_horizon_ns
  std::int64_t end_ns = 0;      // when the simulation stopped (all released jobs done, or cut)
  std::int64_t events = 0;      // scheduling decisions taken (a measure of the simulation's cost)
  std::vector<SimTaskResult> tasks;
  std::vector<SimLockResult> locks;  // the set's lock channels (empty: none)
  // chains: each [[chain]]'s simulated data age and reaction beside its bounds (file order;
  // sim/chain_replay.hpp says how they are read off the schedule). traced = false when a task of
  // the chain was not simulated.
  std::vector<ChainMeasure> chains;
  std::int64_t misses = 0;           // sum over the tasks
  // What was injected (copied from SimOptions): the statistic when a profile was, the seed of
  // `sampled`, the context-switch cost.
  std::optional<OverheadStatistic> overhead_statistic;
  std::uint64_t seed = 0;
  std::int64_t context_switch_ns = 0;
  std::int64_t execution_min_ppm = kExecutionPpm;  // the stochastic execution range
  std::int64_t execution_max_ppm = kExecutionPpm;
  TeamModel team_model = TeamModel::greedy;  // and its queue lock, or its steal costs
  std::int64_t queue_lock_ns = 0;
  std::int64_t queue_contention_ns = 0;  // centralized: per other worker at the lock
  std::int64_t queue_grain_ns = 0;       // centralized: the real tasks' grain (0: one per node)
  std::int64_t steal_cost_ns = 0;
  std::int64_t steal_attempt_ns = 0;
  std::int64_t spawn_cost_ns = 0;
};

// set_metrics computes the set's SimMetrics over its simulated tasks: the miss ratio over all
// their jobs (Σ misses / Σ jobs), the mean relative response over all their completed jobs (each
// job weighs the same), the max over all of them.
SimMetrics set_metrics(const SimResult& result);

// simulate_plan runs the plan's tasks from time 0: task i releases a job at phase_i + k·T_i for
// every such instant before the horizon, and the simulation continues until every released job
// has finished or the last deadline has passed. Deterministic. Tasks the plan did not place are
// reported with simulated = false. Throws InputError if the horizon is not positive.
SimResult simulate_plan(const Plan& plan, const TaskSet& set, const SimOptions& options = {});

// RequiredCoresOptions bounds required_cores' search.
struct RequiredCoresOptions {
  double miss_threshold = 0;  // R in [0, 1]: the largest set miss ratio that counts as meeting
  int min_cores = 1;          // first core count tried
  int max_cores = 256;        // last core count tried (the "none up to M" of the answer)
};

// RequiredCoresStep is one core count tried.
struct RequiredCoresStep {
  int cores = 0;
  bool placed = false;               // the plan for `cores` placed every task (else not simulated)
  bool plan_schedulable = false;     // the planner's own verdict on that plan
  std::optional<double> miss_ratio;  // set miss ratio of its simulation (placed plans only)
  bool meets = false;                // placed and miss ratio ≤ R
};

// RequiredCoresResult is the answer of required_cores.
struct RequiredCoresResult {
  PlannerKind planner = PlannerKind::federated;
  double miss_threshold = 0;
  int max_cores = 0;
  std::optional<int> cores;  // the smallest core count that meets R; nullopt: none up to max
  std::vector<RequiredCoresStep> steps;
};

// required_cores is RTWS's RTCG search (RTWS §VII, Fig. 8) for any planner: for m = min_cores,
// min_cores + 1, …, max_cores, re-plan the set with `planner` for a machine of m cores (target
// "<m>c"; CPU ids 0..m−1) and simulate that plan with `sim`; the answer is the first m whose
// plan places every task and whose simulated set miss ratio is ≤ R. A plan that leaves a task
// unplaced does not meet R (part of the set would not run at all); a plan that places every task
// but that the planner's analysis refuses is simulated all the same, and the simulation decides
// (the RTCG search measures the cores the schedule needs, not the analysis).
// `plan_options.target` is replaced at each step. Throws InputError for R outside [0, 1] (field
// "--miss-threshold") or min_cores < 1 or max_cores < min_cores (field "--max-cores").
RequiredCoresResult required_cores(PlannerKind planner, const TaskSet& set,
                                   const PlanOptions& plan_options, const SimOptions& sim,
                                   const RequiredCoresOptions& options);

// required_cores_json renders one RequiredCoresResult (schema: docs/cli.md).
std::string required_cores_json(const RequiredCoresResult& result);

// required_cores_text renders it for people: "required cores: m" or "none up to M", then the steps.
std::string required_cores_text(const RequiredCoresResult& result);

// CoreIncreaseOptions bound core_increase.
struct CoreIncreaseOptions {
  double miss_threshold = 0.25;  // a task whose miss ratio is above this gets a core per round
  int max_cores = 30;            // the machine: a set that needs more has no answer
};

// CoreIncreaseResult is the answer of core_increase.
struct CoreIncreaseResult {
  std::optional<int> cores;     // the set's cores once no task is above the threshold; nullopt:
                                // more than max_cores were needed, or a task cannot get cores
  int rounds = 0;               // simulations run
  std::vector<int> task_cores;  // per task of the set: its cores at the end (0: not placed)
};

// core_increase is RTWS's required-cores search as the paper ran it (RTWS §VII (3), Fig. 8
// (c, f, i, l); decisions WS1, WS10 in the experiments brief): simulate the plan with `sim`; every
// task on dedicated cores (no other task uses them) whose miss ratio is above the threshold gets
// one more, a CPU id no task uses; repeat until no task is above it (the answer is the number of
// distinct CPUs the plan then uses) or more than max_cores would be needed (nullopt; the paper
// plots 34 on its 30 cores). A task above the threshold on shared cores, or a task the plan did
// not place, cannot be helped by more dedicated cores: nullopt. Only team plans (federated,
// federated-ws) grow that way: a strand plan is refused. Throws InputError for a threshold
// outside [0, 1] (field "miss_threshold"), max_cores < 1 (field "max_cores") or a strand plan.
CoreIncreaseResult core_increase(const Plan& plan, const TaskSet& set, const SimOptions& sim,
                                 const CoreIncreaseOptions& options);

// simulation_json renders the `rtpar simulate --json` document (schema: docs/cli.md).
std::string simulation_json(const SimResult& result);

// simulation_table renders the per-task simulation summary for people.
std::string simulation_table(const SimResult& result);

}  // namespace rtpar
