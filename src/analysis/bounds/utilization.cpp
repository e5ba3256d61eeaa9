// utilization.cpp — see utilization.hpp.
#include "analysis/bounds/utilization.hpp"

namespace rtpar::analysis {

void UtilizationSum::add(std::int64_t wcet, std::int64_t period) {
  approx_ += static_cast<long double>(wcet) / static_cast<long double>(period);
  if (!exact_) return;
  // p/q + C/T = (p·T + C·q) / (q·T), then reduced by the gcd. Every product is overflow-checked
  // (p and q reach 2^100, T 2^63); past 2^100 the fraction is dropped for the estimate.
  constexpr __int128 kLimit = static_cast<__int128>(1) << 100;
  __int128 nq = 0;
  __int128 pt = 0;
  __int128 cq = 0;
  __int128 np = 0;
  if (__builtin_mul_overflow(q_, static_cast<__int128>(period), &nq) ||
      __builtin_mul_overflow(p_, static_cast<__int128>(period), &pt) ||
      __builtin_mul_overflow(static_cast<__int128>(wcet), q_, &cq) ||
      __builtin_add_overflow(pt, cq, &np) || nq > kLimit || np > kLimit) {
    exact_ = false;
    return;
  }
  __int128 a = np;
  __int128 b = nq;
  while (b != 0) {
    const __int128 r = a % b;
    a = b;
    b = r;
  }
  p_ = a == 0 ? 0 : np / a;
  q_ = a == 0 ? 1 : nq / a;
}

UtilVerdict UtilizationSum::verdict() const {
  if (exact_) {
    if (p_ < q_) return UtilVerdict::below_one;
    if (p_ == q_) return UtilVerdict::exactly_one;
    return UtilVerdict::above_one;
  }
  // The estimate's error is far below 1e-12 for any realistic count of terms (each adds a
  // relative rounding error of 2^-64).
  if (approx_ > 1.0L + 1e-12L) return UtilVerdict::above_one;
  if (approx_ < 1.0L - 1e-12L) return UtilVerdict::below_one;
  return UtilVerdict::unknown;
}

}  // namespace rtpar::analysis
