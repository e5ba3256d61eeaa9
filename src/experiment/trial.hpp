// trial.hpp — one unit of an experiment: generate its task set, judge it by every series.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiment/units.hpp"

namespace rtpar::experiment {

// Verdict is what one series says of one trial's task set.
enum class Verdict {
  admitted,        // schedulable by the planner, or within the bound
  rejected,        // not schedulable
  not_applicable,  // the planner refuses the set's form (e.g. a structure it does not model)
  missed,          // simulation manifests: simulated, and at least one job missed its deadline
};

// verdict_name spells v as in the raw rows: "admitted", "rejected", "n/a" or "missed". In a
// simulation manifest "admitted" means the set ran without a miss (and, with admission, that the
// planner admitted it).
const char* verdict_name(Verdict v) noexcept;

// SeriesResult is one series' verdict on one unit, with its planning time (a timing column,
// left out of every comparison).
struct SeriesResult {
  Verdict verdict = Verdict::rejected;
  std::int64_t elapsed_us = 0;
  // Simulation and runtime manifests only (raw columns plan_admitted … max_rel_response):
  bool plan_admitted = false;  // the planner's own verdict
  bool simulated = false;      // the plan was executed (by the simulator, or run: runtime class)
  std::int64_t jobs = 0;       // jobs released over the horizon
  std::int64_t misses = 0;     // jobs that missed
  std::optional<double> max_relative_response;   // max response / deadline over completed jobs
  std::optional<double> mean_relative_response;  // mean response / deadline over them (RTWS §VII)
  // Series with required_cores (SimSpec::core_increase), on a simulated plan: the search ran
  // (required_searched), and its answer (nullopt: more than required_max cores were needed).
  bool required_searched = false;
  std::optional<int> required_cores;
  int required_max = 0;  // Bench studies: the matched record's metrics (Manifest::bench metrics
                         // order; nullopt: the
  // record has no such numeric field). Verdict admitted = a record matched ("measured").
  std::vector<std::optional<double>> metrics;
};

// UnitResult is one unit's outcome: what was generated and every series' verdict, in manifest
// series order.
struct UnitResult {
  Unit unit;
  std::uint64_t seed = 0;
  std::int64_t tasks = 0;
  std::int64_t redraws = 0;
  std::int64_t draws = 1;     // UnitDraw::draws
  bool draw_admitted = true;  // UnitDraw::admitted
  double total_util = 0;      // Σ C/T of the generated set
  std::vector<SeriesResult> series;
};

// UnitDraw is a unit's task set and how it was drawn (Manifest::admitted_by).
struct UnitDraw {
  gen::Generated generated;
  std::int64_t draws = 1;  // sets drawn (1 without admitted_by)
  bool admitted = true;    // the last draw is admitted by admitted_by (true without it)
};

// draw_unit draws a unit's task set (the same set on every run and split), redrawing refused ones
// under admitted_by (Manifest::admitted_by). InputError when the generator parameters are bad.
UnitDraw draw_unit(const Resolved& r, const Unit& u);

// generate_unit is draw_unit's set (what `rtpar experiment emit` writes).
gen::Generated generate_unit(const Resolved& r, const Unit& u);

// series_view is the set as series s judges it: a copy with the series' fit and wait (settings of
// the set itself) when it states them, else null (judge the set as generated).
std::optional<TaskSet> series_view(const Series& s, const TaskSet& set);

// series_plan_options are the planner options of series s (target, assignment, charged profile).
PlanOptions series_plan_options(const Series& s);

// simulate_series judges a simulation series: plan (as an analysis series does), then, if the
// plan is admitted (or the series has admission = false and the plan places every task),
// simulate it with the series' SimSpec and the trial's `seed` for sampled overheads.
SeriesResult simulate_series(const Series& s, const TaskSet& set, std::uint64_t seed);

// run_series judges a runtime series: plan (as an analysis series does), then, if the plan is
// admitted, run it on this machine for the series' RunSpec duration with the real executor.
// Throws what the executor throws (InputError, EnvironmentError, TaskFailure): a study that cannot
// run stops, never records a row for a set that did not run.
SeriesResult run_series(const Series& s, const TaskSet& set);

// run_baseline runs set as series s's baseline (RunSpec::baseline: OpenMP tasks with loops and
// delays, rtpar-omp-looptasks) for the series' duration and fills out's run columns; n/a when the
// program is not built here. Throws std::runtime_error when it fails or prints no JSON.
void run_baseline(const Series& s, const TaskSet& set, SeriesResult& out);

// bench_unit computes one unit of a bench study: one driver run (`rtpar-bench DRIVER [bench] args,
// panel args, scale args, x_option X, --json`) and, for each series, the one record it matches
// (none: n/a). The driver's refusal of real-time scheduling (its exit status 3) is an
// EnvironmentError; any other failure, or a series matching two records, stops the study.
UnitResult bench_unit(const Resolved& r, const Unit& u);

// run_unit computes one unit. Re-entrant: planners and generators keep no global state, so
// worker threads run units concurrently (except a runtime study's: run_units runs those one at a
// time, since two runs on one machine would disturb each other).
UnitResult run_unit(const Resolved& r, const Unit& u);

}  // namespace rtpar::experiment
