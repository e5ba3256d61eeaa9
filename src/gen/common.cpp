// common.cpp — shared parameters and draws of the generic families (common.hpp).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include "gen/common.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "gen/build.hpp"
#include "gen/utilizations.hpp"

namespace rtpar::gen {

std::vector<ParamInfo> common_params(const std::string& n, const std::string& total,
                                     const std::string& util_max, const std::string& planner) {
  return {
      {"cores", "8", "cores of the target machine ([system] cores = N)"},
      {"planner", planner, "[system] planner written into the set"},
      {"tasks", n, "number of tasks n"},
      {"total_util", total, "Σ C_i/T_i (absolute, not per core)"},
      {"util_method", "uunifast-discard",
       "\"uunifast-discard\" (Bini & Buttazzo; redraw while some u_i > util_max) or "
       "\"randfixedsum\" (Stafford / Emberson et al.; u_i in [util_min, util_max])"},
      {"util_min", "0", "lower bound of a task's utilization (randfixedsum only)"},
      {"util_max", util_max, "upper bound of a task's utilization"},
      {"period_dist", "log-uniform",
       "\"log-uniform\", \"uniform\" (both rounded to µs) or \"harmonic\" (period_min·2^k)"},
      {"period_min", "10ms", "shortest period"},
      {"period_max", "1000ms", "longest period"},
      {"deadline", "implicit",
       "\"implicit\" (D = T) or \"constrained\" (D ~ U[max(L, ratio·T), T])"},
      {"deadline_min_ratio", "0.5", "constrained: smallest D/T"},
      {"max_redraws", "100000", "give up (error) after this many rejected draws"},
  };
}

Common read_common(const ParamReader& r) {
  Common c;
  c.cores = static_cast<int>(r.integer("cores", 1, 8192));
  c.planner = read_planner(r, "planner");
  c.n = static_cast<int>(r.integer("tasks", 1, 100000));
  c.total = r.real("total_util", 0, 1e6);
  if (c.total <= 0) r.fail("total_util", "must be > 0");
  c.randfixedsum = r.choice("util_method", {"uunifast-discard", "randfixedsum"}) == "randfixedsum";
  c.util_min = r.real("util_min", 0, 1e6);
  c.util_max = r.real("util_max", 0, 1e6);
  if (c.util_max <= 0) r.fail("util_max", "must be > 0");
  if (c.n * c.util_max < c.total) {
    r.fail("util_max", fmt::format("{} tasks of at most {} cannot reach total_util {}", c.n,
                                   c.util_max, c.total));
  }
  if (c.randfixedsum) {
    if (c.util_min >= c.util_max) r.fail("util_min", "must be < util_max");
    if (c.n * c.util_min > c.total) {
      r.fail("util_min",
             fmt::format("{} tasks of at least {} exceed total_util {}", c.n, c.util_min, c.total));
    }
  }
  c.period_dist = r.choice("period_dist", {"log-uniform", "uniform", "harmonic"});
  c.period_min = r.duration("period_min");
  c.period_max = r.duration("period_max");
  if (c.period_max < c.period_min) r.fail("period_max", "must be >= period_min");
  c.constrained = r.choice("deadline", {"implicit", "constrained"}) == "constrained";
  c.deadline_min_ratio = r.real("deadline_min_ratio", 0, 1);
  c.max_redraws = r.integer("max_redraws", 0, INT64_MAX);
  return c;
}

std::vector<double> draw_utilizations(const Common& c, const ParamReader& r, Rng& rng,
                                      std::int64_t* redraws) {
  if (c.randfixedsum) return randfixedsum(rng, c.n, c.total, c.util_min, c.util_max);
  auto u = uunifast_discard(rng, c.n, c.total, c.util_max, c.max_redraws, redraws);
  if (!u) {
    r.fail("util_max", fmt::format("UUniFast-discard rejected {} draws in a row; raise util_max or "
                                   "tasks, or use util_method = \"randfixedsum\"",
                                   c.max_redraws + 1));
  }
  return *u;
}

Duration draw_period(const Common& c, Rng& rng) {
  const auto lo = static_cast<double>(c.period_min.count());
  const auto hi = static_cast<double>(c.period_max.count());
  if (c.period_dist == "harmonic") {
    int levels = 1;
    while (levels < 62 && c.period_min.count() <= (c.period_max.count() >> levels)) ++levels;
    return c.period_min * (std::int64_t{1} << rng.below(static_cast<std::uint64_t>(levels)));
  }
  const double x = c.period_dist == "uniform" ? rng.uniform_real(lo, hi) : rng.log_uniform(lo, hi);
  // Whole microseconds keep hyperperiods and files readable; never below period_min.
  const std::int64_t us = static_cast<std::int64_t>(std::floor(x / 1000.0)) * 1000;
  return std::clamp(Duration(us), c.period_min, c.period_max);
}

Duration draw_deadline(const Common& c, Rng& rng, Duration period, Duration span) {
  if (!c.constrained) return period;
  const auto floor_ratio = static_cast<std::int64_t>(
      std::ceil(c.deadline_min_ratio * static_cast<double>(period.count())));
  const std::int64_t lo = std::min(std::max(span.count(), floor_ratio), period.count());
  return Duration(rng.uniform_int(lo, period.count()));
}

Duration work_for(double u, Duration period, const ParamReader& r) {
  const double w = std::floor(u * static_cast<double>(period.count()));
  if (!(w < 9223372036854775808.0)) {
    r.fail("period_max", fmt::format("a work of u = {} on a period of {} does not fit 64-bit ns", u,
                                     format_duration(period)));
  }
  return Duration(std::max<std::int64_t>(1, static_cast<std::int64_t>(w)));
}

}  // namespace rtpar::gen
