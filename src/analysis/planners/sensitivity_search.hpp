// sensitivity_search.hpp — the search behind analyse_sensitivity: the largest scaling factor an
// admission predicate accepts, by doubling or halving from ×1 and then bisection to 0.1 %, and
// the grid check for predicates that are not monotone.
#pragma once

#include <cstdint>

#include "rtpar/function_ref.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

// kSensitivityMaxFactor is the largest factor any search probes (×1,000,000, in millionths):
// beyond it the scaled lengths approach int64 (C·10^6 ≥ 2^63 ns for C ≥ 2.5 h), and a margin of a
// million is "unlimited" for any engineering purpose.
inline constexpr std::int64_t kSensitivityMaxFactor = kSensitivityScale * 1'000'000;

// kSensitivityGridPoints: the grid check of a non-monotone search probes the factors
// admitted·j/kSensitivityGridPoints for j = 1 .. kSensitivityGridPoints − 1.
inline constexpr int kSensitivityGridPoints = 16;

// SearchInput is what search_margin needs besides the predicate.
struct SearchInput {
  // limit: the factor at which the set is certainly refused (a scaled span exceeds its
  // deadline), clamped to [kSensitivityScale, kSensitivityMaxFactor]; the upward search stops
  // there.
  std::int64_t limit = kSensitivityMaxFactor;
  // monotone: the predicate never accepts a factor above one it refuses. A monotone search
  // refused at ×0.000001 stops there (no larger factor below ×1 can be admitted), and runs no
  // grid check.
  bool monotone = true;
};

// search_margin finds the largest factor `admits` accepts (millionths, kSensitivityScale = ×1):
//  1. ×1; if admitted, ×2, ×4, ... up to input.limit until refused; else ×1/2, ×1/4, ... down to
//     1 until admitted (monotone: after probing 1 first);
//  2. bisection of the bracket [admitted, refused) until refused − admitted ≤ max(1,
//     admitted/1000): 0.1 % relative;
//  3. not monotone: the grid check (kSensitivityGridPoints) below the admitted factor, which
//     records the smallest factor refused there.
// Each step calls `admits` once; ScalingMargin::probes counts them.
ScalingMargin search_margin(FunctionRef<bool(std::int64_t)> admits, const SearchInput& input);

}  // namespace rtpar::analysis
