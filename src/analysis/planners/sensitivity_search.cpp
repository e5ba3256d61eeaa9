// sensitivity_search.cpp — see sensitivity_search.hpp.
#include "analysis/planners/sensitivity_search.hpp"

#include <algorithm>
#include <cstdint>

namespace rtpar::analysis {

namespace {

// Probe calls the predicate and counts the call in the margin.
struct Probe {
  FunctionRef<bool(std::int64_t)> admits;
  ScalingMargin& margin;

  bool operator()(std::int64_t factor) const {
    ++margin.probes;
    return admits(factor);
  }
};

// close_enough is bisection's stop: the bracket is within 0.1 % of the admitted factor (and at
// least one millionth wide, the resolution of a factor).
bool close_enough(std::int64_t admitted, std::int64_t refused) {
  return refused - admitted <= std::max<std::int64_t>(1, admitted / 1000);
}

// grid_check probes admitted·j/kSensitivityGridPoints for j = 1, 2, ... and records the first
// (smallest) factor refused in margin.refused_below.
void grid_check(const Probe& probe, ScalingMargin& margin) {
  const std::int64_t admitted = *margin.admitted;
  for (int j = 1; j < kSensitivityGridPoints; ++j) {
    // admitted·j/G without overflow: the quotient and the remainder parts separately.
    const std::int64_t k = admitted / kSensitivityGridPoints * j +
                           admitted % kSensitivityGridPoints * j / kSensitivityGridPoints;
    if (k >= 1 && !probe(k)) {
      margin.refused_below = k;
      return;
    }
  }
}

}  // namespace

ScalingMargin search_margin(FunctionRef<bool(std::int64_t)> admits, const SearchInput& input) {
  ScalingMargin margin;
  margin.limit = std::clamp(input.limit, kSensitivityScale, kSensitivityMaxFactor);
  const Probe probe{admits, margin};
  std::int64_t admitted = 0;  // 0: none found yet
  std::int64_t refused = 0;   // 0: none found yet (admitted up to the limit)
  if (probe(kSensitivityScale)) {
    admitted = kSensitivityScale;
    while (admitted < margin.limit) {
      const std::int64_t next = admitted > margin.limit / 2 ? margin.limit : admitted * 2;
      if (!probe(next)) {
        refused = next;
        break;
      }
      admitted = next;
    }
    if (refused == 0) {
      margin.admitted = admitted;  // admitted at the limit: no bracket to bisect
      if (!input.monotone) grid_check(probe, margin);
      return margin;
    }
  } else {
    refused = kSensitivityScale;
    // A monotone predicate that refuses the smallest factor refuses every factor in between.
    if (input.monotone && !probe(1)) {
      margin.refused = 1;
      return margin;
    }
    for (std::int64_t k = kSensitivityScale / 2; k >= 1; k /= 2) {
      if (probe(k)) {
        admitted = k;
        break;
      }
      refused = k;
    }
    if (admitted == 0) {
      margin.refused = refused;  // the smallest factor probed; no probe was admitted
      return margin;
    }
  }
  while (!close_enough(admitted, refused)) {
    const std::int64_t mid = admitted + (refused - admitted) / 2;
    if (probe(mid)) {
      admitted = mid;
    } else {
      refused = mid;
    }
  }
  margin.admitted = admitted;
  margin.refused = refused;
  if (!input.monotone) grid_check(probe, margin);
  return margin;
}

}  // namespace rtpar::analysis
