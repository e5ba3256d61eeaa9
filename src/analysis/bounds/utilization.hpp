// utilization.hpp — U = Σ C_i/T_i compared with 1, exactly whenever 128 bits allow it.
//
// Both single-core tests need the comparison: EDF (edf_demand.hpp: U > 1 ⇒ unschedulable, and
// U ≤ 1 with implicit deadlines ⇒ schedulable) and fixed-priority RTA (rta.hpp: U_hp ≥ 1 ⇒ no
// fixed point; first-fit: a core with U > 1 cannot pass RTA). A double sum would misjudge sets
// whose utilisation is exactly 1, which is the common "fully used core".
#pragma once

#include <cstdint>

namespace rtpar::analysis {

// UtilVerdict is where U lies relative to 1; unknown only when the exact fraction overflowed and
// the long double estimate is within 1e-12 of 1.
enum class UtilVerdict { below_one, exactly_one, above_one, unknown };

// UtilizationSum accumulates U = Σ C_i/T_i as a reduced fraction p/q in 128 bits; when a
// denominator would pass 2^100 (many coprime periods) it keeps only a long double estimate.
// Copyable, so a trial "this core plus one task" is a copy plus add().
class UtilizationSum {
 public:
  // add adds C/T (C ≥ 0, T > 0).
  void add(std::int64_t wcet, std::int64_t period);

  // verdict compares the sum with 1 (exactly while the fraction is exact).
  [[nodiscard]] UtilVerdict verdict() const;

  // approx is the long double estimate of the sum.
  [[nodiscard]] long double approx() const noexcept { return approx_; }

 private:
  __int128 p_ = 0;
  __int128 q_ = 1;
  bool exact_ = true;
  long double approx_ = 0;
};

}  // namespace rtpar::analysis
