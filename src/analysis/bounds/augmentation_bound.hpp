// augmentation_bound.hpp — resource-augmentation bound tests as per-set schedulability tests
// (decision F10 of docs/internals/experiment-spec.md; FJOS §VIII-A, Fig. 6 "PST" and "PSCPS").
//
// A scheduler with resource-augmentation bound b schedules every set that is feasible on a machine
// b times slower; with the two necessary conditions of feasibility on Q unit-speed cores
// (U ≤ Q and L_i ≤ D_i), scaled by b, it schedules every set with
//   U = Σ_i C_i/T_i ≤ Q/b   and   L_i ≤ D_i/b for every task i,
// the "shaded areas" of FJOS Fig. 6. b = 5: PST, Saifullah et al., "Multi-core Real-Time
// Scheduling for Generalized Parallel Task Models", RTSS'11, §V (partitioned deadline-monotonic
// after decomposition). b = 3.73: PSCPS, Kim et al., ICCPS'13 (a global deadline-monotonic bound;
// FJOS uses it for a partitioned system, see F10).
#pragma once

#include <cstdint>

#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// Ratio is a positive fraction num/den (num, den ≥ 1), the exact form of a bound b.
struct Ratio {
  std::int64_t num = 1;
  std::int64_t den = 1;
};

// kBoundScale is the denominator b is taken to: 6 decimals (as system.delta, docs/analysis.md).
inline constexpr std::int64_t kBoundScale = 1'000'000;
// kMaxBound is the largest b accepted (b·kBoundScale then fits comfortably in int64).
inline constexpr double kMaxBound = 1e6;

// bound_ratio is b as round(b·10^6)/10^6 (3.73 → 3730000/1000000). Throws std::invalid_argument
// when b is not finite, not in (0, kMaxBound], or rounds to 0.
Ratio bound_ratio(double b);

// augmentation_bound_holds decides U ≤ cores/b and L_i ≤ D_i/b for every task (file comment),
// with b = r.num/r.den, exactly: L_i·num ≤ D_i·den in 128 bits, and num·Σ C_i/T_i ≤ cores·den
// first with the sum bracketed by Σ⌊C_i·S/T_i⌋ ≤ S·U ≤ Σ⌈C_i·S/T_i⌉ (S = 10^18), then, only
// when the threshold lies inside that bracket, as a reduced fraction; a fraction that overflows
// 128 bits there makes the test fail (never pass on an overflowed number). Needs r.num, r.den ≥ 1
// and cores ≥ 0 (std::invalid_argument otherwise); tasks must have C, L > 0 and 0 < D ≤ T (the
// planners' checked parameters). An empty set holds.
bool augmentation_bound_holds(const TaskSet& set, int cores, Ratio r);

}  // namespace rtpar::analysis
