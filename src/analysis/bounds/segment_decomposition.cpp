// decompose.cpp — see decompose.hpp.
#include "analysis/bounds/segment_decomposition.hpp"

#include <fmt/core.h>

namespace rtpar::analysis {

std::optional<Decomposition> decompose(const std::vector<SegmentSpec>& segments,
                                       std::int64_t deadline, std::string& why) {
  if (segments.empty()) {
    why = "the task has no segments to decompose";
    return std::nullopt;
  }
  __int128 c = 0;
  __int128 p = 0;
  for (const SegmentSpec& s : segments) {
    c += static_cast<__int128>(s.strands) * s.length.count();
    p += s.length.count();
  }
  const auto d = static_cast<__int128>(deadline);
  if (p > d) {
    why = fmt::format(
        "critical path P = {} ns exceeds the deadline D = {} ns: no number of cores meets it",
        static_cast<std::int64_t>(p), deadline);
    return std::nullopt;
  }
  Decomposition out;
  // The paper's rule needs slack L = D − 2.5·P > 0, i.e. 2.5·P < D ⇔ 5·P < 2·D (integers).
  out.paper_rule = 5 * p < 2 * d;
  __int128 c_light = 0;
  __int128 p_light = 0;
  bool any_heavy = false;
  for (const SegmentSpec& s : segments) {
    DecomposedSegment seg;
    seg.strands = s.strands;
    seg.length = s.length.count();
    // m > 2.5·C / (D − 2.5·P) ⇔ m·(2·D − 5·P) > 5·C, both sides multiplied by 2·(D − 2.5P) > 0.
    // Without slack (L ≤ 0) the threshold is +∞ in the limit L → 0+: every segment is light.
    seg.heavy = out.paper_rule && static_cast<__int128>(s.strands) * (2 * d - 5 * p) > 5 * c;
    if (!seg.heavy) {
      c_light += static_cast<__int128>(s.strands) * s.length.count();
      p_light += s.length.count();
    }
    any_heavy = any_heavy || seg.heavy;
    out.segments.push_back(seg);
  }
  // Window j as num_j / den over a common denominator (all terms exact integers):
  //   heavy: d = 2.5·e·(1 + l) = e·m·(D − 2.5·P^ℓ)/(C − C^ℓ) = e·m·(2D − 5P^ℓ) / (2·(C − C^ℓ))
  //   light (with heavy ones): d = 2.5·e = 5·e·(C − C^ℓ) / (2·(C − C^ℓ))
  //   all light: d = e·D / P
  // With heavy segments: Σ_heavy e·m = C − C^ℓ, so the heavy windows sum to D − 2.5·P^ℓ and the
  // light ones to 2.5·P^ℓ — exactly D in total. All light: Σ e = P, so the windows sum to D.
  std::vector<__int128> num;
  __int128 den = 1;
  if (any_heavy) {
    den = 2 * (c - c_light);
    for (const DecomposedSegment& seg : out.segments) {
      num.push_back(seg.heavy
                        ? static_cast<__int128>(seg.length) * seg.strands * (2 * d - 5 * p_light)
                        : 5 * static_cast<__int128>(seg.length) * (c - c_light));
    }
  } else {
    den = p;
    for (const DecomposedSegment& seg : out.segments) {
      num.push_back(static_cast<__int128>(seg.length) * d);
    }
  }
  __int128 cumulative = 0;
  std::int64_t previous = 0;
  for (std::size_t j = 0; j < out.segments.size(); ++j) {
    cumulative += num[j];
    const auto boundary = static_cast<std::int64_t>(cumulative / den);  // floor (all ≥ 0)
    out.segments[j].offset = previous;
    out.segments[j].window = boundary - previous;
    previous = boundary;
  }
  return out;
}

}  // namespace rtpar::analysis
