// uunifast_family.cpp — the `uunifast` family: n tasks described by C and L only (no structure),
// utilizations by UUniFast-discard or RandFixedSum, periods and deadlines from common.hpp, and
// L = U[span_ratio_min, span_ratio_max]·C clamped so that L ≤ D (a task whose critical path exceeds
// its deadline could never be scheduled, so the generator never writes one).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include <algorithm>
#include <cmath>

#include "gen/build.hpp"
#include "gen/common.hpp"
#include "gen/draw_tasks.hpp"
#include "gen/families.hpp"

namespace rtpar::gen {

FamilyInfo uunifast_family() {
  FamilyInfo f{"uunifast",
               "sequential or C/L tasks: UUniFast-discard or RandFixedSum utilizations, "
               "log-uniform/uniform/harmonic periods",
               common_params("10", "4", "1", "federated")};
  f.params.push_back(
      {"span_ratio_min", "1", "smallest L/C (1 with span_ratio_max = 1: sequential tasks)"});
  f.params.push_back({"span_ratio_max", "1", "largest L/C"});
  return f;
}

Generated generate_uunifast(const ParamReader& r, std::uint64_t seed) {
  const Common c = read_common(r);
  const double ratio_min = r.real("span_ratio_min", 0, 1);
  const double ratio_max = r.real("span_ratio_max", 0, 1);
  if (ratio_max < ratio_min) r.fail("span_ratio_max", "must be >= span_ratio_min");
  // L ≤ min(C, T) by construction: never redrawn.
  return draw_tasks(
      c, r, seed, "uunifast", {"C/L task", "(never redrawn)"},
      [&](Rng& rng, std::size_t i, Duration period, Duration work) {
        const double ratio = rng.uniform_real(ratio_min, ratio_max);
        Duration span(std::max<std::int64_t>(
            1, static_cast<std::int64_t>(std::floor(ratio * static_cast<double>(work.count())))));
        span = std::min({span, work, period});
        return spin_task(task_name(i), work, span);
      });
}

}  // namespace rtpar::gen
