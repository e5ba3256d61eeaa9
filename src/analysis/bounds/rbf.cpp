// rbf.cpp — see rbf.hpp.
#include "analysis/bounds/rbf.hpp"

#include <algorithm>

#include "core/checked_math.hpp"

namespace rtpar::analysis {

__int128 rbf_fbb(__int128 work, std::int64_t period, std::int64_t d) {
  return work + ceil_div(static_cast<__int128>(d) * work, period);
}

__int128 offset_burst(const std::vector<CoreSegment>& segs, std::int64_t d) {
  __int128 burst = 0;
  for (const CoreSegment& l : segs) {
    __int128 within = 0;
    for (const CoreSegment& p : segs) {
      // δ_p(l) = (r_p − r_l) mod T_j ∈ [0, T_j): the first release of segment p at or after l's.
      // Not (x % T + T) % T: x % T + T exceeds int64 for T near 2^63 ns (offsets are ≥ 0, so
      // x = r_p − r_l cannot overflow; its remainder is in (−T, T)).
      const std::int64_t t = p.period;
      std::int64_t delta = (p.offset - l.offset) % t;
      if (delta < 0) delta += t;
      if (delta < d) within += p.work;
    }
    burst = std::max(burst, within);
  }
  return burst;
}

__int128 rbf_star(const std::vector<CoreSegment>& segs, std::int64_t d) {
  if (segs.empty()) return 0;
  __int128 work = 0;
  for (const CoreSegment& p : segs) work += p.work;
  return offset_burst(segs, d) + ceil_div(static_cast<__int128>(d) * work, segs.front().period);
}

}  // namespace rtpar::analysis
