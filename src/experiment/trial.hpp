// trial.hpp — one unit of an experiment: generate its task set, judge it by every series.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiment/units.hpp"

namespace rtpar::experiment {

// Verdict is what one series says of one trial's task set.
enum class Verdict {
  admitted,        // schedulable by the planner, or within the bound
  rejected,        // not schedulable
  not_applicable,  // the planner refuses the set's form (e.g. a structure it does not model)
};

// verdict_name spells v as in the raw rows: "admitted", "rejected" or "n/a".
const char* verdict_name(Verdict v) noexcept;

// SeriesResult is one series' verdict on one unit, with its planning time (a timing column,
// left out of every comparison).
struct SeriesResult {
  Verdict verdict = Verdict::rejected;
  std::int64_t elapsed_us = 0;
};

// UnitResult is one unit's outcome: what was generated and every series' verdict, in manifest
// series order.
struct UnitResult {
  Unit unit;
  std::uint64_t seed = 0;
  std::int64_t tasks = 0;
  std::int64_t redraws = 0;
  double total_util = 0;  // Σ C/T of the generated set
  std::vector<SeriesResult> series;
};

// generate_unit draws a unit's task set (the same set on every run and split). InputError when
// the manifest's generator parameters are bad.
gen::Generated generate_unit(const Resolved& r, const Unit& u);

// run_unit computes one unit. Re-entrant: planners and generators keep no global state, so
// worker threads run units concurrently.
UnitResult run_unit(const Resolved& r, const Unit& u);

}  // namespace rtpar::experiment
