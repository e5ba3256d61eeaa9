// sync_family.cpp — the `sync` family: parallel-synchronous tasks (segments of equal-length
// strands). Each task's structure is drawn first (segment count, strands per segment, relative
// segment lengths U[0.5, 1.5]) and then scaled so that C = floor-rounded u·T; a structure whose
// span exceeds the deadline is redrawn (counted).
#include "gen/fp_strict.hpp"  // first: no FMA contraction in this file

#include <cmath>

#include <fmt/core.h>

#include "gen/build.hpp"
#include "gen/common.hpp"
#include "gen/families.hpp"

namespace rtpar::gen {

FamilyInfo sync_family() {
  FamilyInfo f{"sync", "synchronous parallel tasks: segments of equal strands, scaled to u_i·T_i",
               common_params("6", "4", "4", "decomposition")};
  f.params.push_back({"segments_min", "1", "fewest segments per task"});
  f.params.push_back({"segments_max", "10", "most segments per task"});
  f.params.push_back({"strands_min", "1", "fewest strands per segment"});
  f.params.push_back({"strands_max", "8", "most strands per segment"});
  return f;
}

Generated generate_sync(const ParamReader& r, std::uint64_t seed) {
  const Common c = read_common(r);
  const auto seg_min = r.integer("segments_min", 1, 100000);
  const auto seg_max = r.integer("segments_max", 1, 100000);
  if (seg_max < seg_min) r.fail("segments_max", "must be >= segments_min");
  const auto str_min = r.integer("strands_min", 1, 1000000);
  const auto str_max = r.integer("strands_max", 1, 1000000);
  if (str_max < str_min) r.fail("strands_max", "must be >= strands_min");
  Rng rng(seed);
  Generated out;
  const std::vector<double> u = draw_utilizations(c, r, rng, &out.redraws);
  TaskSet set;
  set.system = count_system(c.cores, 1, c.planner);
  for (std::size_t i = 0; i < u.size(); ++i) {
    const Duration period = draw_period(c, rng);
    const auto target = static_cast<double>(work_for(u[i], period, r).count());
    for (std::int64_t tries = 0;; ++tries) {
      const auto count = static_cast<std::size_t>(rng.uniform_int(seg_min, seg_max));
      std::vector<SegmentSpec> segs(count);
      std::vector<double> weight(count);
      double total = 0;
      for (std::size_t s = 0; s < count; ++s) {
        segs[s].strands = rng.uniform_int(str_min, str_max);
        weight[s] = rng.uniform_real(0.5, 1.5);
        total += static_cast<double>(segs[s].strands) * weight[s];
      }
      for (std::size_t s = 0; s < count; ++s) {
        const double len = std::floor(target * weight[s] / total);
        segs[s].length = Duration(std::max<std::int64_t>(1, static_cast<std::int64_t>(len)));
      }
      TaskSpec t = segment_task(task_name(i), std::move(segs));
      t.period = period;
      if (t.span <= period) {
        t.deadline = draw_deadline(c, rng, period, t.span);
        set.tasks.push_back(std::move(t));
        break;
      }
      if (++out.redraws, tries >= c.max_redraws) {
        r.fail("util_max", fmt::format("task {}: no structure with span <= period in {} draws "
                                       "(u = {:.3f}); lower util_max or raise segments/strands",
                                       i, tries + 1, u[i]));
      }
    }
  }
  out.set = finish(std::move(set), "sync");
  return out;
}

}  // namespace rtpar::gen
