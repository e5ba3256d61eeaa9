// rtomp.cpp — the RT-OpenMP generator (RT-OpenMP §VI-A "Task Set Generation", with the
// decisions RO1–RO4 and RO11 of docs/internals/experiment-spec.md §3). Everything is drawn in the
// paper's units; 1 unit = timescale / 2048 (Table I: the shortest period, 2^11 units, lasts
// `timescale`). Segment boundaries are rounded to whole ns as cumulative positions, so the
// critical path is exactly round(P_i · unit) and no rounding error accumulates.
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include <cmath>
#include <vector>

#include <fmt/core.h>

#include "core/rng.hpp"
#include "gen/build.hpp"
#include "gen/families.hpp"
#include "gen/rtomp.hpp"

namespace rtpar::gen {

FamilyInfo rtomp_family() {
  return {"rtomp",
          "RT-OpenMP parallel-synchronous sets (RT-OpenMP §VI-A; RO1-RO4, RO11, Table I)",
          {
              {"cores", "12", "m, cores (the paper: 12 or 36)"},
              {"util_pct", "50", "target total utilization in percent of m (RO1: 20..80)"},
              {"gap_pct", "2", "accepted shortfall below the target, percentage points of m (RO4)"},
              {"timescale", "4",
               "T_min in ms: 2^11 units last this long (Table I: 2, 4, 8, 16, 32, 2048)"},
              {"seg_min", "100", "minimum segment length, units"},
              {"seg_avg", "400",
               "average segment length, units: seg_min + LN(mean seg_avg - seg_min) (RO2)"},
              {"seg_sigma", "1.0", "σ of the segment-length log-normal (RO2)"},
              {"strands_avg", "4",
               "average strands per segment: 1 + round(LN(mean strands_avg - 1)) (RO2)"},
              {"strands_sigma", "1.0", "σ of the strand-count log-normal (RO2)"},
              {"overshoot_redraws", "100",
               "redraws of a task that overshoots before closing or restarting (RO4)"},
              {"max_restarts", "10000", "give up (error) after this many restarted sets"},
              {"planner", "decomposition", "[system] planner written into the set"},
              {"fit", "fbb-ffd",
               "[system] fit: \"fbb-ffd\" (the paper's first-fit), \"worst-fit\", \"first-fit\""},
          }};
}

double rtomp_segment_units(Rng& rng, double seg_min, double seg_avg, double sigma) {
  return seg_min + rng.lognormal_mean(seg_avg - seg_min, sigma);
}

namespace {

// RtompParams are the checked parameters of one draw.
struct RtompParams {
  int cores = 0;
  double target = 0, gap = 0, unit_ns = 0;
  double seg_min = 0, seg_avg = 0, seg_sigma = 0, strands_avg = 0, strands_sigma = 0;
  std::int64_t overshoot = 0, max_restarts = 0;
  PlannerKind planner = PlannerKind::decomposition;
  FitKind fit = FitKind::fbb_ffd;
};

// kCriticalPath is P_i / T_i with its probability (§VI-A: 8, 10, 14, 20% w.p. .4, .3, .2, .1).
constexpr double kCriticalPath[4][2] = {{0.08, 0.4}, {0.10, 0.3}, {0.14, 0.2}, {0.20, 0.1}};

// draw_task draws one task in ns (period 2^i units, i ∈ {11..16} uniform, RO11).
TaskSpec draw_task(const RtompParams& p, Rng& rng, std::size_t index) {
  const auto i = rng.uniform_int(11, 16);
  const double period_units = std::ldexp(1.0, static_cast<int>(i));
  double pick = rng.uniform01(), ratio = kCriticalPath[3][0];
  for (const auto& [r, prob] : kCriticalPath) {
    if (pick < prob) {
      ratio = r;
      break;
    }
    pick -= prob;
  }
  const double path = ratio * period_units;
  // Segment lengths in units, segment by segment until the critical path is reached (RO3).
  std::vector<double> lengths;
  std::vector<std::int64_t> strands;
  double sum = 0;
  while (sum < path) {
    double e = rtomp_segment_units(rng, p.seg_min, p.seg_avg, p.seg_sigma);
    const auto k = 1 + static_cast<std::int64_t>(
                           std::llround(rng.lognormal_mean(p.strands_avg - 1, p.strands_sigma)));
    if (sum + e >= path) {
      e = path - sum;  // truncate the last segment to hit P_i exactly
      if (e < p.seg_min && !lengths.empty()) {
        lengths.back() += e;  // a too-short remainder extends the previous segment instead
        break;
      }
    }
    lengths.push_back(e);
    strands.push_back(k);
    sum += e;
  }
  std::vector<SegmentSpec> segs;
  double cum = 0;
  std::int64_t prev_ns = 0;
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    cum += lengths[s];
    const std::int64_t end_ns =
        s + 1 == lengths.size() ? std::llround(path * p.unit_ns) : std::llround(cum * p.unit_ns);
    segs.push_back({strands[s], Duration(std::max<std::int64_t>(1, end_ns - prev_ns)), {}});
    prev_ns = end_ns;
  }
  TaskSpec t = segment_task(task_name(index), std::move(segs));
  t.period = Duration(std::llround(period_units * p.unit_ns));
  t.deadline = t.period;
  return t;
}

}  // namespace

Generated generate_rtomp(const ParamReader& r, std::uint64_t seed) {
  RtompParams p;
  p.cores = static_cast<int>(r.integer("cores", 1, 8192));
  const double pct = r.real("util_pct", 0, 100);
  if (pct <= 0) r.fail("util_pct", "must be > 0");
  p.target = p.cores * pct / 100.0;
  p.gap = p.cores * r.real("gap_pct", 0, 100) / 100.0;
  const double timescale_ms = r.real("timescale", 0, 1e6);
  if (timescale_ms <= 0) r.fail("timescale", "must be > 0");
  p.unit_ns = timescale_ms * 1e6 / 2048.0;
  p.seg_min = r.real("seg_min", 0, 1e9);
  p.seg_avg = r.real("seg_avg", 0, 1e9);
  if (p.seg_avg <= p.seg_min) r.fail("seg_avg", "must be > seg_min");
  p.seg_sigma = r.real("seg_sigma", 0, 10);
  p.strands_avg = r.real("strands_avg", 1, 1e6);
  if (p.strands_avg <= 1) r.fail("strands_avg", "must be > 1");
  p.strands_sigma = r.real("strands_sigma", 0, 10);
  p.overshoot = r.integer("overshoot_redraws", 0, 1000000);
  p.max_restarts = r.integer("max_restarts", 0, INT64_MAX);
  p.planner = read_planner(r, "planner");
  p.fit = read_fit(r, "fit");
  Rng rng(seed);
  Generated out;
  for (std::int64_t restarts = 0;; ++restarts) {
    TaskSet set;
    set.system = count_system(p.cores, 1, p.planner);
    set.system.fit = p.fit;
    double total = 0;
    bool closed = false;
    while (!closed) {
      bool added = false;
      for (std::int64_t tries = 0; tries <= p.overshoot; ++tries) {
        TaskSpec t = draw_task(p, rng, set.tasks.size());
        if (total + t.utilization() <= p.target) {
          total += t.utilization();
          set.tasks.push_back(std::move(t));
          added = true;
          break;
        }
        ++out.redraws;
      }
      // No task fits any more: close the set if it is within the gap, else start again (RO4).
      if (!added) closed = true;
    }
    if (!set.tasks.empty() && total >= p.target - p.gap) {
      out.set = finish(std::move(set), "rtomp");
      return out;
    }
    if (restarts >= p.max_restarts) {
      r.fail("gap_pct", fmt::format("no set within {} points of the target in {} attempts",
                                    r.real("gap_pct", 0, 100), restarts + 1));
    }
  }
}

}  // namespace rtpar::gen
