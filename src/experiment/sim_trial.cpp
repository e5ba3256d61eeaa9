// sim_trial.cpp — one simulation series on one trial's task set: plan it as an analysis series
// does, then execute the plan in the discrete-event simulator (docs/experiments.md "Simulation
// manifests").
#include <algorithm>

#include "experiment/trial.hpp"

namespace rtpar::experiment {

namespace {

// places_every_task says whether a plan gives every task of the set somewhere to run: a refused
// plan may still be complete (its analysis failed, not its placement), and only a complete plan
// can say anything about the whole set when simulated.
bool places_every_task(const SimResult& r) {
  return std::all_of(r.tasks.begin(), r.tasks.end(),
                     [](const SimTaskResult& t) { return t.simulated; });
}

}  // namespace

SeriesResult simulate_series(const Series& s, const TaskSet& generated, std::uint64_t seed) {
  SeriesResult out;
  const std::optional<TaskSet> view = series_view(s, generated);
  const TaskSet& set = view ? *view : generated;
  try {
    const Plan plan = plan_with(s.planner, set, series_plan_options(s));
    out.plan_admitted = plan.schedulable;
    if (!plan.schedulable && s.sim->admission) {
      out.verdict = Verdict::rejected;
      return out;
    }
    SimResult sim;
    // Kept alive for the simulation: SimOptions holds a plain pointer to it.
    const std::shared_ptr<const OverheadProfile> profile =
        barrier_profile(*s.sim, static_cast<int>(set.system.cores.size()));
    SimOptions options = sim_options(*s.sim, set, seed);
    options.overhead = profile.get();
    try {
      sim = simulate_plan(plan, set, options);
    } catch (const InputError&) {
      // The simulator refuses an incomplete refused plan (a strand the planner could not place):
      // the set fails, as refused, rather than being out of the study's reach.
      if (plan.schedulable) throw;
      out.verdict = Verdict::rejected;
      return out;
    }
    if (!places_every_task(sim)) {
      // Part of the set would not run at all: a failure however the rest behaves.
      out.verdict = Verdict::rejected;
      return out;
    }
    out.simulated = true;
    const SimMetrics metrics = set_metrics(sim);
    out.jobs = metrics.jobs;
    out.misses = metrics.misses;
    out.max_relative_response = metrics.max_relative_response;
    out.mean_relative_response = metrics.mean_relative_response;
    out.verdict = metrics.misses > 0 ? Verdict::missed : Verdict::admitted;
    if (s.sim->core_increase) {
      CoreIncreaseOptions o = *s.sim->core_increase;
      if (o.max_cores == 0) o.max_cores = static_cast<int>(set.system.cores.size());
      const CoreIncreaseResult found = core_increase(plan, set, options, o);
      out.required_searched = true;
      out.required_cores = found.cores;
      out.required_max = o.max_cores;
    }
  } catch (const InputError&) {
    // The planner (or the simulator) does not model the set's form: not a failure of the set.
    out.verdict = Verdict::not_applicable;
  }
  return out;
}

}  // namespace rtpar::experiment
