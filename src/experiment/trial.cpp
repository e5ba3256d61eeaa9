// trial.cpp — generate one unit's task set and judge it by every series (paired comparison).
#include "experiment/trial.hpp"

#include <chrono>
#include <cstdlib>

#include "core/rng.hpp"

namespace rtpar::experiment {

const char* verdict_name(Verdict v) noexcept {
  switch (v) {
    case Verdict::admitted:
      return "admitted";
    case Verdict::rejected:
      return "rejected";
    case Verdict::not_applicable:
      return "n/a";
    case Verdict::missed:
      return "missed";
  }
  return "unknown";
}

UnitDraw draw_unit(const Resolved& r, const Unit& u) {
  const std::uint64_t seed = unit_seed(r, u);
  UnitDraw d{gen::generate(unit_family(r, u), unit_params(r, u), seed), 1, true};
  if (!r.manifest.admitted_by) return d;
  for (;;) {
    try {
      d.admitted = plan_with(*r.manifest.admitted_by, d.generated.set).schedulable;
    } catch (const InputError&) {
      d.admitted = false;  // a form the planner does not model is not admitted either
    }
    if (d.admitted || d.draws >= r.manifest.redraw_limit) return d;
    d.generated = gen::generate(unit_family(r, u), unit_params(r, u),
                                derive_seed(seed, static_cast<std::uint64_t>(d.draws)));
    ++d.draws;
  }
}

gen::Generated generate_unit(const Resolved& r, const Unit& u) { return draw_unit(r, u).generated; }

std::optional<TaskSet> series_view(const Series& s, const TaskSet& set) {
  if (!s.fit && !s.wait && !s.shared_wait) return std::nullopt;
  TaskSet copy = set;
  if (s.fit) copy.system.fit = *s.fit;
  if (s.shared_wait) copy.system.shared_wait = *s.shared_wait;
  if (s.wait) {
    for (TaskSpec& t : copy.tasks) t.wait.kind = *s.wait;
  }
  return copy;
}

PlanOptions series_plan_options(const Series& s) {
  PlanOptions options;
  if (s.target) options.target = &*s.target;
  if (s.assign) options.assign = *s.assign;
  options.overhead = s.overhead.get();
  options.force_place = s.force_place;
  return options;
}

namespace {

// judge applies one analysis series to a generated set.
Verdict judge(const Series& s, const TaskSet& set) {
  if (s.kind == SeriesKind::bound) {
    const int cores = static_cast<int>(set.system.cores.size());
    return augmentation_bound_holds(set, cores, std::strtod(s.bound.c_str(), nullptr))
               ? Verdict::admitted
               : Verdict::rejected;
  }
  try {
    const std::optional<TaskSet> view = series_view(s, set);
    return plan_with(s.planner, view ? *view : set, series_plan_options(s)).schedulable
               ? Verdict::admitted
               : Verdict::rejected;
  } catch (const InputError&) {
    // A planner that does not model the set's form refuses it as input: not a rejection.
    return Verdict::not_applicable;
  }
}

}  // namespace

UnitResult run_unit(const Resolved& r, const Unit& u) {
  if (r.manifest.bench) return bench_unit(r, u);
  UnitResult out;
  out.unit = u;
  out.seed = unit_seed(r, u);
  const UnitDraw d = draw_unit(r, u);
  const gen::Generated& g = d.generated;
  out.draws = d.draws;
  out.draw_admitted = d.admitted;
  out.tasks = static_cast<std::int64_t>(g.set.tasks.size());
  out.redraws = g.redraws;
  for (const TaskSpec& t : g.set.tasks) out.total_util += t.utilization();
  for (const Series& s : r.manifest.series) {
    const auto start = std::chrono::steady_clock::now();
    SeriesResult result;
    if (s.sim) {
      result = simulate_series(s, g.set, out.seed);
    } else if (s.run) {
      result = run_series(s, g.set);
    } else {
      result.verdict = judge(s, g.set);
    }
    result.elapsed_us = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
    out.series.push_back(result);
  }
  return out;
}

}  // namespace rtpar::experiment
