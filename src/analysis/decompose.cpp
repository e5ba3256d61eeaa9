// decompose.cpp — see decompose.hpp.
#include "analysis/decompose.hpp"

#include <fmt/core.h>

namespace rtpar::analysis {

std::optional<std::vector<DecomposedSegment>> decompose(const std::vector<SegmentSpec>& segments,
                                                        std::int64_t deadline, std::string& why) {
  __int128 c = 0;
  __int128 p = 0;
  for (const SegmentSpec& s : segments) {
    c += static_cast<__int128>(s.strands) * s.length.count();
    p += s.length.count();
  }
  // 2.5·P < D ⇔ 5·P < 2·D (integers).
  if (5 * p >= 2 * static_cast<__int128>(deadline)) {
    why = fmt::format(
        "no slack for decomposition: 2.5 × span = {} ns ≥ deadline {} ns (rt-openmp.md §IV-A "
        "needs 2.5·P < D)",
        static_cast<std::int64_t>(5 * p / 2), deadline);
    return std::nullopt;
  }
  std::vector<DecomposedSegment> out;
  __int128 c_light = 0;
  __int128 p_light = 0;
  bool any_heavy = false;
  for (const SegmentSpec& s : segments) {
    DecomposedSegment d;
    d.strands = s.strands;
    d.length = s.length.count();
    // m > 2.5·C / (D − 2.5·P) ⇔ m·(2·D − 5·P) > 5·C, all terms positive.
    d.heavy =
        static_cast<__int128>(s.strands) * (2 * static_cast<__int128>(deadline) - 5 * p) > 5 * c;
    if (!d.heavy) {
      c_light += static_cast<__int128>(s.strands) * s.length.count();
      p_light += s.length.count();
    }
    any_heavy = any_heavy || d.heavy;
    out.push_back(d);
  }
  // Window j as num_j / den over a common denominator:
  //   heavy: d = e·m·(D − 2.5·P^ℓ)/(C − C^ℓ) = e·m·(2D − 5P^ℓ) / (2·(C − C^ℓ))
  //   light (with heavy ones): d = 2.5·e = 5·e·(C − C^ℓ) / (2·(C − C^ℓ))
  //   all light: d = e·D / P
  std::vector<__int128> num;
  __int128 den = 1;
  if (any_heavy) {
    den = 2 * (c - c_light);
    for (const DecomposedSegment& d : out) {
      num.push_back(d.heavy ? static_cast<__int128>(d.length) * d.strands *
                                  (2 * static_cast<__int128>(deadline) - 5 * p_light)
                            : 5 * static_cast<__int128>(d.length) * (c - c_light));
    }
  } else {
    den = p;
    for (const DecomposedSegment& d : out) {
      num.push_back(static_cast<__int128>(d.length) * deadline);
    }
  }
  __int128 cumulative = 0;
  std::int64_t previous = 0;
  for (std::size_t j = 0; j < out.size(); ++j) {
    cumulative += num[j];
    const auto boundary = static_cast<std::int64_t>(cumulative / den);  // floor
    out[j].offset = previous;
    out[j].window = boundary - previous;
    previous = boundary;
  }
  return out;
}

}  // namespace rtpar::analysis
