// run_trial.cpp — one runtime series on one trial's task set: plan it as an analysis series does,
// then run the admitted plan on this machine with the real executor (docs/experiments.md "Runtime
// manifests"). Only admitted plans run, unless the series says `admission = false`: then a
// refused plan that places every task runs too (RT-OpenMP's "run whatever the analysis said",
// decision RO5; OpenMP-RT's baseline without admission control).
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>

#include "experiment/trial.hpp"
#include "kernels/instantiate.hpp"
#include "platform/rt_neighbours.hpp"
#include "rtpar/executor.hpp"

namespace rtpar::experiment {

SeriesResult run_series(const Series& s, const TaskSet& generated) {
  SeriesResult out;
  std::optional<TaskSet> view = series_view(s, generated);
  TaskSet set = view ? std::move(*view) : TaskSet(generated);  // one copy at most
  Plan plan;
  try {
    plan = plan_with(s.planner, set, series_plan_options(s));
  } catch (const InputError&) {
    // The planner does not model the set's form: not a failure of the set.
    out.verdict = Verdict::not_applicable;
    return out;
  }
  out.plan_admitted = plan.schedulable;
  if (!s.run->baseline.empty()) {
    run_baseline(s, set, out);  // OpenMP-RT's baseline: no admission, no plan (baseline_trial.cpp)
    return out;
  }
  if (!plan.schedulable && (s.run->admission || !plan_places_every_task(plan))) {
    // Refused (or, without admission, refused and incomplete: part of the set could not run at
    // all, a failure however the rest would behave).
    out.verdict = Verdict::rejected;
    return out;
  }
  // Errors from here on are the study's, not the set's, and stop it: a plan on cores this machine
  // does not have (InputError: the generator's `cores` exceed the online CPUs), real-time
  // scheduling refused (EnvironmentError, exit status 3 with its hint), a kernel that threw
  // (TaskFailure). Never a row that pretends the set ran.
  // Another process at real-time priority shares the cores: say so for every run it touches (the
  // run's misses may be its doing), but run: the rows stay complete and the warning is the record.
  for (const detail::RtNeighbour& n :
       s.run->best_effort ? std::vector<detail::RtNeighbour>{} : detail::rt_neighbours()) {
    fmt::print(stderr,
               "warning: series '{}': process {} ({}) has {} real-time thread(s) running: this run "
               "shares the machine with it\n",
               s.name, n.pid, n.command, n.threads);
  }
  kernels::instantiate_kernels(set);
  rtpar::RunConfig config;  // the executor's, not this namespace's study RunConfig
  config.duration = Duration(s.run->duration_ns);
  config.cpu_latency_us = s.run->cpu_latency_us;
  config.best_effort = s.run->best_effort;
  config.run_refused = !s.run->admission;
  const RunReport report = execute(set, plan, config);
  out.simulated = true;
  for (const TaskStats& t : report.stats()) {
    out.jobs += t.jobs;
    out.misses += t.misses;
    if (t.jobs > 0) {
      out.max_relative_response =
          std::max(out.max_relative_response.value_or(0.0), t.max_relative_response);
    }
  }
  // The mean relative response over every completed job of the set, as the simulator's set
  // metrics take it (set_metrics): Σ (finish − release)/D over the jobs / their number.
  double relative_sum = 0;
  std::int64_t completed = 0;
  for (const TaskRun& t : report.tasks) {
    for (const JobRecord& j : t.records) {
      if (j.finish_ns <= 0 || t.deadline_ns <= 0) continue;
      relative_sum +=
          static_cast<double>(j.finish_ns - j.release_ns) / static_cast<double>(t.deadline_ns);
      ++completed;
    }
  }
  if (completed > 0) out.mean_relative_response = relative_sum / static_cast<double>(completed);
  out.verdict = out.misses > 0 ? Verdict::missed : Verdict::admitted;
  return out;
}

}  // namespace rtpar::experiment
