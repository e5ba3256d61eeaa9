// augmentation_bound.cpp — see augmentation_bound.hpp.
#include "analysis/bounds/augmentation_bound.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

#include "core/checked_math.hpp"

namespace rtpar::analysis {

namespace {

using i128 = __int128;

// kSumScale is S of the bracketing sum: C·S/T ≤ 2^63·10^18 < 2^124 for one term.
constexpr i128 kSumScale = static_cast<i128>(1'000'000'000'000'000'000LL);

// mul128 is a·b, or nullopt when it does not fit in __int128.
std::optional<i128> mul128(i128 a, i128 b) {
  i128 r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// add128 is a + b, or nullopt when it does not fit in __int128.
std::optional<i128> add128(i128 a, i128 b) {
  i128 r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// gcd128 is the greatest common divisor of a, b ≥ 0.
i128 gcd128(i128 a, i128 b) {
  while (b != 0) {
    const i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// exact_sum_at_most decides Σ C_i/T_i ≤ limit_num/limit_den as a reduced fraction p/q; nullopt
// when a step overflows 128 bits.
std::optional<bool> exact_sum_at_most(const TaskSet& set, i128 limit_num, i128 limit_den) {
  i128 p = 0, q = 1;
  for (const TaskSpec& t : set.tasks) {
    // p/q + C/T = (p·(T/g) + C·(q/g)) / (q/g·T), g = gcd(q, T).
    const i128 c = t.work.count(), period = t.period.count();
    const i128 g = gcd128(q, period);
    const auto left = mul128(p, period / g);
    const auto right = mul128(c, q / g);
    const auto den = mul128(q / g, period);
    if (!left || !right || !den) return std::nullopt;
    const auto num = add128(*left, *right);
    if (!num) return std::nullopt;
    const i128 r = gcd128(*num, *den);
    p = *num / r;
    q = *den / r;
  }
  const auto lhs = mul128(p, limit_den);
  const auto rhs = mul128(limit_num, q);
  if (!lhs || !rhs) return std::nullopt;
  return *lhs <= *rhs;
}

// utilization_at_most decides U ≤ cores·den/num (file comment of the header).
bool utilization_at_most(const TaskSet& set, int cores, Ratio r) {
  // num·U ≤ cores·den  ⇔  num·(S·U) ≤ cores·den·S. The right side is < 2^13·2^63·2^60.
  const i128 limit = static_cast<i128>(cores) * r.den * kSumScale;
  i128 lo = 0, hi = 0;
  bool hi_overflowed = false;
  for (const TaskSpec& t : set.tasks) {
    const i128 scaled = static_cast<i128>(t.work.count()) * kSumScale;
    const i128 floor_term = scaled / t.period.count();
    const i128 ceil_term = ceil_div(scaled, t.period.count());
    const auto next_lo = add128(lo, floor_term);
    // Σ⌊·⌋ past 2^127: U is far above any cores/b, the bound does not hold.
    if (!next_lo) return false;
    lo = *next_lo;
    const auto next_hi = add128(hi, ceil_term);
    if (!next_hi) hi_overflowed = true;
    if (!hi_overflowed) hi = *next_hi;
  }
  const auto lo_side = mul128(lo, r.num);
  if (!lo_side || *lo_side > limit) return false;  // S·U ≥ lo is already above the limit
  if (!hi_overflowed) {
    const auto hi_side = mul128(hi, r.num);
    if (hi_side && *hi_side <= limit) return true;  // S·U ≤ hi is already within it
  }
  // The threshold lies within the bracket (width ≤ the number of tasks, in units of 1/S).
  const auto exact = exact_sum_at_most(set, static_cast<i128>(cores) * r.den, r.num);
  return exact.value_or(false);
}

}  // namespace

Ratio bound_ratio(double b) {
  if (!std::isfinite(b) || b <= 0.0 || b > kMaxBound) {
    throw std::invalid_argument("augmentation bound b must be a finite number in (0, 1e6]");
  }
  const std::int64_t num = std::llround(b * static_cast<double>(kBoundScale));
  if (num < 1) throw std::invalid_argument("augmentation bound b is 0 when taken to 6 decimals");
  return Ratio{num, kBoundScale};
}

bool augmentation_bound_holds(const TaskSet& set, int cores, Ratio r) {
  if (r.num < 1 || r.den < 1)
    throw std::invalid_argument("augmentation bound: b needs num, den ≥ 1");
  if (cores < 0) throw std::invalid_argument("augmentation bound: cores must be ≥ 0");
  for (const TaskSpec& t : set.tasks) {
    // L_i ≤ D_i/b  ⇔  L_i·num ≤ D_i·den; each product < 2^63·2^63 = 2^126.
    if (static_cast<i128>(t.span.count()) * r.num > static_cast<i128>(t.deadline.count()) * r.den) {
      return false;
    }
  }
  return utilization_at_most(set, cores, r);
}

}  // namespace rtpar::analysis
