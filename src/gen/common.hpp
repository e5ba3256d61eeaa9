// common.hpp — the parameters and draws the generic families (uunifast, sync, dag) share: task
// count and total utilization, the utilization method, periods and deadlines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "gen/params.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::gen {

// Common are the checked shared parameters of one draw.
struct Common {
  int cores = 0;
  PlannerKind planner = PlannerKind::federated;
  int n = 0;            // tasks
  double total = 0;     // Σ u_i
  double util_min = 0;  // randfixedsum lower bound per task
  double util_max = 0;  // upper bound per task (both methods)
  bool randfixedsum = false;
  std::string period_dist;  // "log-uniform", "uniform", "harmonic"
  Duration period_min{0}, period_max{0};
  bool constrained = false;  // D ~ U[max(L, ratio·T), T] instead of D = T
  double deadline_min_ratio = 0;
  std::int64_t max_redraws = 0;
};

// common_params is the shared part of a family's parameter table, with the family's defaults for
// the number of tasks, total utilization and per-task maximum.
std::vector<ParamInfo> common_params(const std::string& n, const std::string& total,
                                     const std::string& util_max, const std::string& planner);

// read_common reads and cross-checks the shared parameters.
Common read_common(const ParamReader& r);

// draw_utilizations draws the n utilizations (UUniFast-discard or RandFixedSum), counting
// rejected draws; throws InputError at generator.util_max when UUniFast-discard keeps failing.
std::vector<double> draw_utilizations(const Common& c, const ParamReader& r, Rng& rng,
                                      std::int64_t* redraws);

// draw_period draws a period: log-uniform or uniform in [period_min, period_max] rounded to whole
// µs (floor, at least period_min), or harmonic: period_min·2^k for k uniform with
// period_min·2^k ≤ period_max.
Duration draw_period(const Common& c, Rng& rng);

// draw_deadline is T for implicit deadlines, else uniform in [max(span, ratio·T), T], whole ns.
Duration draw_deadline(const Common& c, Rng& rng, Duration period, Duration span);

// work_for is the work of utilization u on period T: floor(u·T) ns, at least 1 ns, so the task's
// utilization never exceeds the drawn u (except for the 1 ns floor). Fails at
// generator.period_max when the work does not fit 63-bit nanoseconds.
Duration work_for(double u, Duration period, const ParamReader& r);

}  // namespace rtpar::gen
