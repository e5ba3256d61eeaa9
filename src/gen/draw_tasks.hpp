// draw_tasks.hpp — the draw loop the generic families (uunifast, sync, dag) share: the set's
// utilizations, then per task its period, its structure (drawn by the family) and its deadline,
// redrawing a structure whose span exceeds the period. One loop, so the families draw in the same
// order — the golden checksums of tests/gen pin that order (utilizations; then per task: period,
// structure draws, deadline).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "core/rng.hpp"
#include "gen/build.hpp"
#include "gen/common.hpp"
#include "gen/params.hpp"
#include "rtpar/tools/generate.hpp"

namespace rtpar::gen {

// int_range reads NAME_min and NAME_max, each an integer in [lo, hi], and fails at NAME_max when
// max < min.
inline std::pair<std::int64_t, std::int64_t> int_range(const ParamReader& r,
                                                       const std::string& name, std::int64_t lo,
                                                       std::int64_t hi) {
  const std::int64_t min = r.integer(name + "_min", lo, hi);
  const std::int64_t max = r.integer(name + "_max", lo, hi);
  if (max < min) r.fail(name + "_max", "must be >= " + name + "_min");
  return {min, max};
}

// Redraw says what a family's structure must satisfy, for the error after c.max_redraws failed
// draws: "task i: no <what> in N draws (u = …); <hint>" at generator.util_max.
struct Redraw {
  const char* what;  // e.g. "structure with span <= period"
  const char* hint;  // e.g. "lower util_max or raise segments/strands"
};

// draw_tasks draws one set of family `family` from `seed`: c.n utilizations, then for each task
// its period, its structure `structure(rng, i, period, work)` (a TaskSpec with work and span; its
// period and deadline are set here) until its span fits the period (each failure counted in
// Generated::redraws), and its deadline.
template <typename Structure>
Generated draw_tasks(const Common& c, const ParamReader& r, std::uint64_t seed, const char* family,
                     const Redraw& redraw, Structure&& structure) {
  Rng rng(seed);
  Generated out;
  const std::vector<double> u = draw_utilizations(c, r, rng, &out.redraws);
  TaskSet set;
  set.system = count_system(c.cores, 1, c.planner);
  for (std::size_t i = 0; i < u.size(); ++i) {
    const Duration period = draw_period(c, rng);
    const Duration work = work_for(u[i], period, r);
    for (std::int64_t tries = 0;; ++tries) {
      TaskSpec t = structure(rng, i, period, work);
      t.period = period;
      if (t.span <= period) {
        t.deadline = draw_deadline(c, rng, period, t.span);
        set.tasks.push_back(std::move(t));
        break;
      }
      if (++out.redraws, tries >= c.max_redraws) {
        r.fail("util_max", fmt::format("task {}: no {} in {} draws (u = {:.3f}); {}", i,
                                       redraw.what, tries + 1, u[i], redraw.hint));
      }
    }
  }
  out.set = finish(std::move(set), family);
  return out;
}

}  // namespace rtpar::gen
