// rbf.cpp — see rbf.hpp.
#include "analysis/bounds/rbf.hpp"

#include <algorithm>
#include <limits>

#include "core/checked_math.hpp"

namespace rtpar::analysis {

namespace {

// ceil_scaled is ⌈d·work/T⌉ (d, work ≥ 0, T > 0), exactly: in 64-bit unsigned arithmetic when
// d·work fits (the common case, a hardware division), else in __int128.
__int128 ceil_scaled(std::int64_t d, __int128 work, std::int64_t period) {
  std::uint64_t product = 0;
  if (d >= 0 && work >= 0 && work <= kInt64Max &&
      !__builtin_mul_overflow(static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(work),
                              &product)) {
    const auto t = static_cast<std::uint64_t>(period);
    return product / t + (product % t != 0 ? 1 : 0);
  }
  return ceil_div(static_cast<__int128>(d) * work, period);
}

}  // namespace

__int128 rbf_fbb(__int128 work, std::int64_t period, std::int64_t d) {
  return work + ceil_scaled(d, work, period);
}

namespace {

// sorted_in_one_period says whether offset_burst may take its linear path: every segment has the
// first one's period T, offsets are in [0, T) and non-decreasing.
bool sorted_in_one_period(std::span<const CoreSegment> segs) {
  const std::int64_t t = segs.front().period;
  for (std::size_t m = 0; m < segs.size(); ++m) {
    const CoreSegment& p = segs[m];
    if (p.period != t || p.offset < 0 || p.offset >= t) return false;
    if (m > 0 && p.offset < segs[m - 1].offset) return false;
  }
  return true;
}

// pairwise_burst is offset_burst by its definition: every l against every p, O(k²).
__int128 pairwise_burst(std::span<const CoreSegment> segs, std::int64_t d) {
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

}  // namespace

__int128 offset_burst(std::span<const CoreSegment> segs, std::int64_t d) {
  std::int64_t until = 0;
  return offset_burst_until(segs, d, until);
}

__int128 offset_burst_until(std::span<const CoreSegment> segs, std::int64_t d,
                            std::int64_t& until) {
  until = d;
  if (segs.empty()) {
    until = std::numeric_limits<std::int64_t>::max();  // 0 for every d
    return 0;
  }
  if (d <= 0) {
    until = 0;  // δ ≥ 0 is never < d' ≤ 0: 0 up to d' = 0
    return 0;
  }
  if (!sorted_in_one_period(segs)) return pairwise_burst(segs, d);
  // Offsets sorted in [0, T): on the circle of length T, δ_p(l) < d means p lies in the arc
  // [r_l, r_l + d). Unrolled twice (position of entry m ≥ k is r_{m−k} + T), the arc from entry
  // g is the entries g, g+1, ... below r_g + d, at most k of them when d < T (r_g + T ≥ r_g + d);
  // for d ≥ T every δ < T ≤ d, so all count. The arc's end only moves forward with g: a sliding
  // sum, O(k). An entry g tied with g − 1 starts a smaller arc than its tie group's first entry
  // (which counts the whole group), so the maximum is the same as over every l.
  // until: the arc from g keeps its entries while d' ≤ position(end) − r_g (the first entry it
  // leaves out, at distance ≥ d; an arc of all k entries never changes), so the minimum of those
  // over g bounds every arc, in particular each tie group's first, whose arcs are the pairwise
  // windows (the others are subsets of them and never the maximum alone).
  const std::size_t k = segs.size();
  const std::int64_t t = segs.front().period;
  __int128 total = 0;
  for (const CoreSegment& p : segs) total += p.work;
  if (d >= t) {
    until = std::numeric_limits<std::int64_t>::max();
    return total;
  }
  const auto position = [&](std::size_t m) {
    return m < k ? static_cast<__int128>(segs[m].offset)
                 : static_cast<__int128>(segs[m - k].offset) + t;
  };
  __int128 burst = 0;
  __int128 running = 0;                      // Σ work of entries [g, end)
  __int128 next = static_cast<__int128>(t);  // min over g of position(end) − r_g (≤ T)
  std::size_t end = 0;
  for (std::size_t g = 0; g < k; ++g) {
    const __int128 limit = static_cast<__int128>(segs[g].offset) + d;
    while (end < g + k && position(end) < limit) {
      running += segs[end < k ? end : end - k].work;  // end < 2k: no division
      ++end;
    }
    if (end < g + k) next = std::min(next, position(end) - segs[g].offset);
    burst = std::max(burst, running);
    running -= segs[g].work;  // d > 0: entry g is always in its own arc, so end > g
  }
  // next ≥ d (left-out entries lie at or beyond r_g + d) and ≤ T < 2^63.
  until = static_cast<std::int64_t>(next);
  return burst;
}

__int128 rbf_star(std::span<const CoreSegment> segs, std::int64_t d) {
  if (segs.empty()) return 0;
  __int128 work = 0;
  for (const CoreSegment& p : segs) work += p.work;
  return offset_burst(segs, d) + ceil_scaled(d, work, segs.front().period);
}

}  // namespace rtpar::analysis
