// sync_family.cpp — the `sync` family: parallel-synchronous tasks (segments of equal-length
// strands). Each task's structure is drawn first (segment count, strands per segment, relative
// segment lengths U[0.5, 1.5]) and then scaled so that C = floor-rounded u·T; a structure whose
// span exceeds the deadline is redrawn (counted).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include <cmath>

#include "gen/build.hpp"
#include "gen/common.hpp"
#include "gen/draw_tasks.hpp"
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
  // Plain variables, not structured bindings: lambdas may not capture those before C++20's
  // P1091/P1381, which clang implements only from version 16.
  const std::pair<std::int64_t, std::int64_t> segments = int_range(r, "segments", 1, 100000);
  const std::pair<std::int64_t, std::int64_t> strands = int_range(r, "strands", 1, 1000000);
  const std::int64_t seg_min = segments.first, seg_max = segments.second;
  const std::int64_t str_min = strands.first, str_max = strands.second;
  return draw_tasks(
      c, r, seed, "sync",
      {"structure with span <= period", "lower util_max or raise segments/strands"},
      [&](Rng& rng, std::size_t i, Duration /*period*/, Duration work) {
        const auto target = static_cast<double>(work.count());
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
        return segment_task(task_name(i), std::move(segs));
      });
}

}  // namespace rtpar::gen
