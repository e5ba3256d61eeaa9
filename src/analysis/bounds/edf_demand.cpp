// edf_demand.cpp — see edf_demand.hpp.
#include "analysis/bounds/edf_demand.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/checked_math.hpp"

namespace rtpar::analysis {

namespace {

// utilization_exceeds_one compares Σ C_i/T_i with 1 exactly. The fractions are summed as a
// reduced p/q in 128 bits; if a denominator would overflow (many coprime periods), the comparison
// falls back to long double with a margin and, inside the margin, to the busy-period test, which
// never closes when U > 1 (reported by the caller as "does not close").
enum class UtilVerdict { below_one, exactly_one, above_one, unknown };

UtilVerdict compare_utilization(const std::vector<DemandTask>& tasks) {
  __int128 p = 0;
  __int128 q = 1;
  constexpr __int128 kLimit = static_cast<__int128>(1) << 100;
  bool exact = true;
  long double approx = 0;
  for (const DemandTask& t : tasks) {
    approx += static_cast<long double>(t.wcet) / static_cast<long double>(t.period);
    if (!exact) continue;
    // p/q + C/T = (p·T + C·q) / (q·T), then reduce. q ≤ 2^100 and T < 2^63, so q·T can pass
    // 2^127: every product and sum is overflow-checked before it is compared with the limit.
    __int128 nq = 0;
    __int128 pt = 0;
    __int128 cq = 0;
    __int128 np = 0;
    if (__builtin_mul_overflow(q, static_cast<__int128>(t.period), &nq) ||
        __builtin_mul_overflow(p, static_cast<__int128>(t.period), &pt) ||
        __builtin_mul_overflow(static_cast<__int128>(t.wcet), q, &cq) ||
        __builtin_add_overflow(pt, cq, &np) || nq > kLimit || np > kLimit) {
      exact = false;
      continue;
    }
    __int128 a = np;
    __int128 b = nq;
    while (b != 0) {
      const __int128 r = a % b;
      a = b;
      b = r;
    }
    p = a == 0 ? 0 : np / a;
    q = a == 0 ? 1 : nq / a;
  }
  if (exact) {
    if (p < q) return UtilVerdict::below_one;
    if (p == q) return UtilVerdict::exactly_one;
    return UtilVerdict::above_one;
  }
  if (approx > 1.0L + 1e-12L) return UtilVerdict::above_one;
  if (approx < 1.0L - 1e-12L) return UtilVerdict::below_one;
  return UtilVerdict::unknown;
}

}  // namespace

__int128 demand_bound(const std::vector<DemandTask>& tasks, std::int64_t t) {
  __int128 h = 0;
  for (const DemandTask& task : tasks) {
    if (t < task.deadline) continue;
    h += static_cast<__int128>((t - task.deadline) / task.period + 1) * task.wcet;
  }
  return h;
}

DemandVerdict edf_demand_test(const std::vector<DemandTask>& tasks) {
  for (const DemandTask& t : tasks) {
    if (t.wcet < 0 || t.period <= 0 || t.deadline <= 0 || t.deadline > t.period) {
      throw std::invalid_argument("edf_demand_test: need 0 ≤ C and 0 < D ≤ T");
    }
  }
  DemandVerdict verdict;
  std::vector<DemandTask> busy;
  for (const DemandTask& t : tasks) {
    if (t.wcet > 0) busy.push_back(t);
  }
  if (busy.empty()) {
    verdict.schedulable = true;
    return verdict;
  }
  const UtilVerdict util = compare_utilization(busy);
  if (util == UtilVerdict::above_one) {
    verdict.reason = "utilization exceeds 1";
    return verdict;
  }

  // L_b: the synchronous busy period. It closes whenever U ≤ 1; the cap turns an unknown-U case
  // with U > 1 into a rejection instead of an endless loop.
  constexpr __int128 kCap = static_cast<__int128>(1) << 62;
  __int128 w = 0;
  for (const DemandTask& t : busy) w += t.wcet;
  for (;;) {
    __int128 next = 0;
    for (const DemandTask& t : busy) next += ceil_div(w, t.period) * t.wcet;
    if (next == w) break;
    w = next;
    if (w > kCap) {
      verdict.reason = "the busy period does not close (utilization ≥ 1 with no idle time)";
      return verdict;
    }
  }
  __int128 limit = w;
  std::int64_t d_max = 0;
  std::int64_t d_min = std::numeric_limits<std::int64_t>::max();
  for (const DemandTask& t : busy) {
    d_max = std::max(d_max, t.deadline);
    d_min = std::min(d_min, t.deadline);
  }
  if (util == UtilVerdict::below_one) {
    // L_a = max(D_max, Σ (T_i − D_i)·U_i / (1 − U)), evaluated in long double and rounded up:
    // it only shortens the search, so rounding up keeps it an upper bound.
    long double u = 0;
    long double s = 0;
    for (const DemandTask& t : busy) {
      const long double ui = static_cast<long double>(t.wcet) / static_cast<long double>(t.period);
      u += ui;
      s += static_cast<long double>(t.period - t.deadline) * ui;
    }
    if (u < 1.0L) {
      const long double la = std::max<long double>(static_cast<long double>(d_max), s / (1.0L - u));
      if (la + 1.0L < static_cast<long double>(limit)) {
        limit = static_cast<__int128>(la) + 1;
      }
    }
  }

  // max_deadline_below returns the largest absolute deadline d_k = a·T_i + D_i with d_k < x,
  // or -1 when there is none.
  auto max_deadline_below = [&busy](__int128 x) -> __int128 {
    __int128 best = -1;
    for (const DemandTask& t : busy) {
      if (x <= t.deadline) continue;
      const __int128 a = (x - t.deadline - 1) / t.period;
      best = std::max(best, a * t.period + t.deadline);
    }
    return best;
  };

  __int128 t = max_deadline_below(limit + 1);  // deadlines d ≤ L (the check includes t = L)
  if (t < 0) {
    verdict.schedulable = true;
    return verdict;
  }
  auto h = [&busy](__int128 x) { return demand_bound(busy, static_cast<std::int64_t>(x)); };
  __int128 ht = h(t);
  while (ht <= t && ht > d_min) {
    if (ht < t) {
      t = ht;
    } else {
      t = max_deadline_below(t);
      if (t < 0) break;
    }
    ht = h(t);
  }
  if (t >= 0 && ht > t) {
    verdict.failing_t = static_cast<std::int64_t>(t);
    verdict.reason = "processor demand exceeds the interval";
    return verdict;
  }
  verdict.schedulable = true;
  return verdict;
}

}  // namespace rtpar::analysis
