// fjos.cpp — the FJOS generator (FJOS §VIII "Fork/join system generation", with the decisions
// F1–F9 of docs/internals/experiment-spec.md §3). A task is `parallel_stages` parallel stages of
// U{strands_min..strands_max} strands, separated by one-strand sequential stages; its utilization
// is U[ptu − ptu_spread, ptu + ptu_spread]; tasks are added until the total utilization is
// reached, the last one taking the remainder; a system is kept only when every critical path fits
// its period (schedulable on infinitely many cores, without overheads).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include <cmath>
#include <vector>

#include <fmt/core.h>

#include "core/rng.hpp"
#include "gen/build.hpp"
#include "gen/families.hpp"

namespace rtpar::gen {

FamilyInfo fjos_family() {
  return {
      "fjos",
      "FJOS fork/join systems (FJOS §VIII; F1-F9): stages of strands, implicit deadlines",
      {
          {"cores", "40", "Q, cores of the target machine (F1)"},
          {"sockets", "4", "sockets the cores are split into (F1)"},
          {"total_util_pct", "50", "total utilization in percent of the cores (0, 100]"},
          {"ptu", "3",
           "per-task utilization centre: U_i ~ U[ptu - ptu_spread, ptu + ptu_spread] (F6)"},
          {"ptu_spread", "1", "half-width of the per-task utilization range (F6)"},
          {"ptet", "10ms", "per-task execution time C_i^max, the WCET on one core (F5)"},
          {"parallel_stages", "10", "parallel stages per task, separated by sequential ones (F4)"},
          {"strands_min", "1", "fewest strands of a parallel stage"},
          {"strands_max", "100", "most strands of a parallel stage"},
          {"strand_wcet", "equal",
           "\"equal\": c = PTET / strands; \"uniform-per-stage\": per-stage c ~ U[0.5, 1.5]·mean, "
           "rescaled (F2)"},
          {"separator_len", "strand",
           "sequential separator: \"strand\" (one strand of length c) or \"tiny\" (c/100) (F3)"},
          {"wrap", "false", "true adds a leading and a trailing sequential stage (F4)"},
          {"keep", "cpl_le_period",
           "\"cpl_le_period\": redraw systems with a critical path longer than a period (F9); "
           "\"all\""},
          {"max_redraws", "100000", "give up (error) after this many rejected systems"},
          {"planner", "fork-join-rta", "[system] planner written into the set"},
      }};
}

namespace {

// FjosParams are the checked parameters of one FJOS draw.
struct FjosParams {
  int cores = 0, sockets = 0;
  double target = 0, ptu = 0, spread = 0;
  std::int64_t ptet = 0;
  int stages = 0;
  std::int64_t strands_min = 0, strands_max = 0;
  bool per_stage = false, tiny = false, wrap = false, keep_all = false;
  std::int64_t max_redraws = 0;
  PlannerKind planner = PlannerKind::fork_join_rta;
};

// read reads and cross-checks the parameters.
FjosParams read(const ParamReader& r) {
  FjosParams p;
  p.cores = static_cast<int>(r.integer("cores", 1, 8192));
  p.sockets = static_cast<int>(r.integer("sockets", 1, 8192));
  if (p.sockets > p.cores) r.fail("sockets", "must not exceed cores");
  const double pct = r.real("total_util_pct", 0, 100);
  if (pct <= 0) r.fail("total_util_pct", "must be > 0");
  p.target = p.cores * pct / 100.0;
  p.ptu = r.real("ptu", 0, 8192);
  p.spread = r.real("ptu_spread", 0, 8192);
  if (p.ptu - p.spread <= 0) r.fail("ptu", "ptu - ptu_spread must be > 0 (U_i > 0)");
  p.ptet = r.duration("ptet").count();
  p.stages = static_cast<int>(r.integer("parallel_stages", 1, 10000));
  p.strands_min = r.integer("strands_min", 1, 1000000);
  p.strands_max = r.integer("strands_max", 1, 1000000);
  if (p.strands_max < p.strands_min) r.fail("strands_max", "must be >= strands_min");
  p.per_stage = r.choice("strand_wcet", {"equal", "uniform-per-stage"}) == "uniform-per-stage";
  p.tiny = r.choice("separator_len", {"strand", "tiny"}) == "tiny";
  p.wrap = r.boolean("wrap");
  p.keep_all = r.choice("keep", {"cpl_le_period", "all"}) == "all";
  p.max_redraws = r.integer("max_redraws", 0, INT64_MAX);
  p.planner = read_planner(r, "planner");
  return p;
}

// kMinRemainder: a remainder of total utilization below this is given to the task just drawn
// rather than becoming a task of its own, whose period C/u would be absurdly long (F8).
constexpr double kMinRemainder = 1e-3;

// draw_structure draws one task's stages (F2–F4) with C ≤ PTET: strand lengths are rounded down
// to whole ns (at least 1 ns), so the drawn PTET is an upper bound of the task's work.
std::vector<SegmentSpec> draw_structure(const FjosParams& p, Rng& rng) {
  // kind[s]: 0 = parallel stage, 1 = separator; strands[s]; weight[s] = relative strand length.
  std::vector<std::int64_t> strands;
  std::vector<double> weight;
  const double sep_weight = p.tiny ? 0.01 : 1.0;
  auto separator = [&] {
    strands.push_back(1);
    weight.push_back(sep_weight);
  };
  if (p.wrap) separator();
  for (int s = 0; s < p.stages; ++s) {
    if (s > 0) separator();
    strands.push_back(rng.uniform_int(p.strands_min, p.strands_max));
    weight.push_back(p.per_stage ? rng.uniform_real(0.5, 1.5) : 1.0);
  }
  if (p.wrap) separator();
  std::vector<SegmentSpec> segments(strands.size());
  if (!p.per_stage && !p.tiny) {
    // The common case in exact integers: c = floor(PTET / total strands).
    std::int64_t total = 0;
    for (std::int64_t k : strands) total += k;  // ≤ 10^4 stages × 10^6 strands: no overflow
    const std::int64_t c = std::max<std::int64_t>(1, p.ptet / total);
    for (std::size_t s = 0; s < strands.size(); ++s) segments[s] = {strands[s], Duration(c), {}};
    return segments;
  }
  double total = 0;
  for (std::size_t s = 0; s < strands.size(); ++s)
    total += static_cast<double>(strands[s]) * weight[s];
  const double c = static_cast<double>(p.ptet) / total;
  for (std::size_t s = 0; s < strands.size(); ++s) {
    const auto len = static_cast<std::int64_t>(std::floor(c * weight[s]));
    segments[s] = {strands[s], Duration(std::max<std::int64_t>(1, len)), {}};
  }
  return segments;
}

}  // namespace

Generated generate_fjos(const ParamReader& r, std::uint64_t seed) {
  const FjosParams p = read(r);
  Rng rng(seed);
  Generated out;
  for (;;) {
    TaskSet set;
    set.system = count_system(p.cores, p.sockets, p.planner);
    double remaining = p.target;
    bool kept = true;
    while (remaining > 0) {
      double u = rng.uniform_real(p.ptu - p.spread, p.ptu + p.spread);
      if (u <= 0) u = p.ptu;  // only when spread == ptu and U drew exactly 0
      if (remaining - u < kMinRemainder) u = remaining;  // F8: the last task takes the rest
      remaining = u == remaining ? 0 : remaining - u;
      TaskSpec t = segment_task(task_name(set.tasks.size()), draw_structure(p, rng));
      const auto period = period_for(t.work, u);
      if (!period) r.fail("total_util_pct", "a task's period does not fit 64-bit nanoseconds");
      t.period = *period;
      t.deadline = *period;
      kept = kept && (p.keep_all || t.span <= t.period);
      set.tasks.push_back(std::move(t));
    }
    if (kept) {
      out.set = finish(std::move(set), "fjos");
      return out;
    }
    if (++out.redraws > p.max_redraws) {
      r.fail("keep", fmt::format("{} systems in a row had a critical path longer than a period; "
                                 "raise max_redraws or use keep = \"all\"",
                                 out.redraws));
    }
  }
}

}  // namespace rtpar::gen
