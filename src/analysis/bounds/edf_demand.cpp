// edf_demand.cpp — see edf_demand.hpp.
#include "analysis/bounds/edf_demand.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "analysis/bounds/utilization.hpp"
#include "core/checked_math.hpp"

namespace rtpar::analysis {

__int128 demand_bound(const std::vector<DemandTask>& tasks, std::int64_t t) {
  // Each term is < 2^126; saturating the sum at 2^125 keeps it below 2^127 for any number of
  // tasks, and a demand that large exceeds every interval t < 2^63 anyway.
  constexpr __int128 kCeiling = static_cast<__int128>(1) << 125;
  __int128 h = 0;
  for (const DemandTask& task : tasks) {
    if (t < task.deadline) continue;
    h += static_cast<__int128>((t - task.deadline) / task.period + 1) * task.wcet;
    h = std::min(h, kCeiling);
  }
  return h;
}

DemandVerdict edf_demand_test(const std::vector<DemandTask>& tasks, std::uint64_t iteration_cap) {
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
  UtilizationSum sum;
  bool implicit = true;
  for (const DemandTask& t : busy) {
    sum.add(t.wcet, t.period);
    implicit = implicit && t.deadline == t.period;
  }
  const UtilVerdict util = sum.verdict();
  if (util == UtilVerdict::above_one) {
    verdict.reason = "utilization exceeds 1";
    return verdict;
  }
  // Implicit deadlines: schedulable iff U ≤ 1 (Liu & Layland, JACM 1973, Thm 7). Exact, and it
  // spares the busy period, which for U = 1 is the hyperperiod (astronomically many steps).
  if (implicit && util != UtilVerdict::unknown) {
    verdict.schedulable = true;
    return verdict;
  }

  // L_b: the synchronous busy period. It closes whenever U ≤ 1, but may take as many steps as
  // it has jobs (for U = 1 it is the hyperperiod). After kDemandIterationCap steps it is dropped
  // when U < 1, since L_a below bounds the test interval alone (Zhang & Burns 2009, Thm 2);
  // with U = 1 (or unknown) there is no other bound, and the set is refused as capped. The size
  // cap turns an unknown-U case with U > 1 into a rejection instead of an endless loop.
  constexpr __int128 kCap = static_cast<__int128>(1) << 62;
  __int128 w = 0;
  for (const DemandTask& t : busy) w += t.wcet;
  bool closed = false;
  for (std::uint64_t step = 0; step < iteration_cap; ++step) {
    __int128 next = 0;
    for (const DemandTask& t : busy) next += ceil_div(w, t.period) * t.wcet;
    if (next == w) {
      closed = true;
      break;
    }
    w = next;
    if (w > kCap) {
      verdict.reason = "the busy period does not close (utilization ≥ 1 with no idle time)";
      return verdict;
    }
  }
  if (!closed && util != UtilVerdict::below_one) {
    verdict.capped = true;
    verdict.reason = kDemandCapReason;
    return verdict;
  }
  __int128 limit = closed ? w : kCap;
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
  if (!closed && limit >= kCap) {
    // U < 1 but within rounding of 1, so L_a is no better than the size cap: no usable bound.
    verdict.capped = true;
    verdict.reason = kDemandCapReason;
    return verdict;
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
  // QPA visits at most the absolute deadlines in [d_min, L], one per step, but usually far fewer
  // (Zhang & Burns 2009, §5); the cap bounds the pathological cases, refusing conservatively.
  std::uint64_t steps = 0;
  while (ht <= t && ht > d_min) {
    if (++steps > iteration_cap) {
      verdict.capped = true;
      verdict.reason = kDemandCapReason;
      return verdict;
    }
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
