// simulate.cpp — default_sim_horizon and simulate_plan (rtpar/tools/simulate.hpp).
#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "core/checked_math.hpp"
#include "rtpar/error.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/chain_replay.hpp"
#include "sim/engine.hpp"
#include "sim/sim_model.hpp"
#include "sim/sim_options.hpp"

namespace rtpar {

SimHorizon default_sim_horizon(const TaskSet& set, std::int64_t max_horizon_ns) {
  std::int64_t max_phase = 0;
  std::int64_t max_period = 0;
  for (const TaskSpec& t : set.tasks) {
    max_phase = std::max(max_phase, t.phase.count());
    max_period = std::max(max_period, t.period.count());
  }
  // Every task releases at least once (saturating: a phase and a period near 2^63 ns each).
  const std::int64_t floor = sat_add(max_phase, max_period);
  const std::int64_t cap = std::max(max_horizon_ns, floor);
  // H = lcm of the periods, abandoned as soon as it exceeds the cap (it only grows).
  __int128 h = 1;
  bool over = false;
  for (const TaskSpec& t : set.tasks) {
    const std::int64_t p = t.period.count();
    if (p <= 0) continue;
    h = h / std::gcd(static_cast<std::int64_t>(h), p) * p;
    if (h > cap) {
      over = true;
      break;
    }
  }
  __int128 window = h;
  if (max_phase > 0) window = max_phase + 2 * h;
  if (over || window > cap) return SimHorizon{cap, true};
  return SimHorizon{std::max(static_cast<std::int64_t>(window), floor), false};
}

std::int64_t released_jobs(const TaskSet& set, std::int64_t horizon_ns) {
  std::int64_t jobs = 0;
  for (const TaskSpec& t : set.tasks) {
    const std::int64_t phase = t.phase.count();
    const std::int64_t period = t.period.count();
    if (period <= 0 || phase >= horizon_ns) continue;
    // Releases at φ + k·T < horizon: k = 0 .. ⌈(horizon − φ)/T⌉ − 1.
    jobs = sat_add(jobs, static_cast<std::int64_t>(ceil_div(horizon_ns - phase, period)));
  }
  return jobs;
}

namespace {

// fit_horizon shortens a default horizon until it releases at most max_jobs jobs (bisection:
// released_jobs is monotone in the horizon), never below `floor` (every task releases once).
std::int64_t fit_horizon(const TaskSet& set, std::int64_t horizon, std::int64_t floor,
                         std::int64_t max_jobs) {
  std::int64_t lo = std::min(floor, horizon);
  std::int64_t hi = horizon;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (released_jobs(set, mid) <= max_jobs) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

}  // namespace

SimResult simulate_plan(const Plan& plan, const TaskSet& set, const SimOptions& options) {
  SimResult result;
  result.planner = plan.planner;
  result.plan_schedulable = plan.schedulable;
  result.plan_force_placed = plan.force_placed;
  // One table checks every setting (sim_options.hpp); the front ends check the same before.
  std::optional<sim::SimOptionError> error = sim::check_sim_jobs(options, set);
  if (!error) {
    const std::vector<sim::SimOptionError> errors = sim::check_sim_options(options);
    if (!errors.empty()) error = errors.front();
  }
  if (error) throw InputError(SourceLocation{"<simulation>", 0, 0}, error->key, error->message);
  if (options.horizon_ns) {
    result.horizon_ns = *options.horizon_ns;
  } else {
    const SimHorizon h = default_sim_horizon(set, options.max_horizon_ns);
    result.horizon_ns = h.horizon_ns;
    result.horizon_capped = h.capped;
    if (released_jobs(set, result.horizon_ns) > options.max_jobs) {
      std::int64_t max_phase = 0;
      for (const TaskSpec& t : set.tasks) max_phase = std::max(max_phase, t.phase.count());
      result.horizon_ns =
          fit_horizon(set, result.horizon_ns, sat_add(max_phase, 1), options.max_jobs);
      result.horizon_capped = true;
    }
  }
  const sim::SimModel model =
      sim::build_sim_model(plan, set, options.overhead, options.overhead_statistic);
  // Chains are read off the recorded jobs (sim/chain_replay.hpp).
  SimOptions settings = options;
  settings.record_jobs = options.record_jobs || !set.chains.empty();
  sim::EngineOutput out = sim::run_engine(model, sim::EngineParams{result.horizon_ns, settings});
  if (options.overhead != nullptr) result.overhead_statistic = options.overhead_statistic;
  result.seed = options.seed;
  result.context_switch_ns = options.context_switch_ns;
  result.execution_min_ppm = options.execution_min_ppm;
  result.execution_max_ppm = options.execution_max_ppm;
  result.team_model = options.team_model;
  result.queue_lock_ns = options.queue_lock_ns;
  result.queue_contention_ns = options.queue_contention_ns;
  result.queue_grain_ns = options.queue_grain_ns;
  result.steal_cost_ns = options.steal_cost_ns;
  result.steal_attempt_ns = options.steal_attempt_ns;
  result.spawn_cost_ns = options.spawn_cost_ns;
  result.locks = std::move(out.locks);
  result.end_ns = out.end_ns;
  result.events = out.events;
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    const int mi = model.task_of_set[i];
    SimTaskResult r;
    if (mi >= 0) r = std::move(out.tasks[static_cast<std::size_t>(mi)]);
    r.name = set.tasks[i].name;
    r.simulated = mi >= 0;
    r.deadline_ns = set.tasks[i].deadline.count();
    r.response_bound_ns = plan.tasks[i].response_bound_ns;
    result.misses += r.misses;
    result.tasks.push_back(std::move(r));
  }
  if (!set.chains.empty()) {
    result.chains = sim::replay_chains(set, plan, result.tasks);
    if (!options.record_jobs) {
      for (SimTaskResult& r : result.tasks) r.jobs_log = {};
    }
  }
  return result;
}

}  // namespace rtpar
