// rta.cpp — exact fixed-priority response-time analysis on one core (see rta.hpp for the formula).
#include "analysis/bounds/rta.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "analysis/bounds/utilization.hpp"
#include "core/checked_math.hpp"

namespace rtpar::analysis {
namespace {

// Wide is the integer type of every intermediate: ceil(R/T_j)·C_j can reach ~2^126 when both
// factors are near 2^63 ns, which int64 cannot hold but __int128 can.
using Wide = __int128;

// check_task rejects parameters under which the RTA formula is undefined (T = 0) or unsound
// (D > T: a job may then be delayed by its own predecessor, which the formula ignores).
void check_task(const RtaTask& task, std::size_t index) {
  const auto where = [&] { return "rta: task " + std::to_string(index) + ": "; };
  if (task.period.count() <= 0) throw std::invalid_argument(where() + "period must be > 0");
  if (task.deadline.count() <= 0 || task.deadline > task.period) {
    throw std::invalid_argument(where() + "needs 0 < D <= T (constrained deadline)");
  }
  if (task.wcet.count() < 0) throw std::invalid_argument(where() + "C must be >= 0");
}

}  // namespace

std::int64_t rta_start(std::int64_t wcet, const std::vector<RtaInterferer>& hp) {
  if (wcet <= 0) return 0;  // C = 0: R = 0 may be the fixed point (no job is pending)
  Wide first = wcet;        // R ≥ 1 ⇒ ⌈R/T_j⌉ ≥ 1 ⇒ R ≥ C + Σ C_j
  long double u = 0;
  for (const RtaInterferer& j : hp) {
    first += j.wcet;
    u += static_cast<long double>(j.wcet) / static_cast<long double>(j.period);
  }
  Wide best = sat_narrow(first);  // a clamped lower bound is still a lower bound
  // The relative error of 1 − u is ≤ |hp|·2^-64 / (1 − u) ≤ 1e-9 for 1 − u ≥ 1e-6 and any
  // realistic |hp|; the 1e-8 margin and the −1 absorb it and the final rounding.
  if (u < 1.0L - 1e-6L) {
    const long double lb = static_cast<long double>(wcet) / (1.0L - u) * (1.0L - 1e-8L) - 1.0L;
    if (lb > static_cast<long double>(best) && lb < 9.0e18L) best = static_cast<Wide>(lb);
  }
  return static_cast<std::int64_t>(best);
}

RtaResult fixed_point_response(std::int64_t wcet, std::int64_t deadline, std::int64_t start,
                               const std::vector<RtaInterferer>& hp) {
  RtaResult out;
  Wide response = std::max<std::int64_t>(start, wcet);  // R^0 ≥ C_i (Audsley et al. 1993)
  if (response > deadline) return out;
  if (wcet > 0) {
    // U_hp ≥ 1 ⇒ Σ ⌈R/T_j⌉·C_j ≥ R·U_hp ≥ R, so C + Σ … > R for every R: no fixed point. The
    // long double sum settles the clear cases; the exact fraction only those near 1.
    long double approx = 0;
    for (const RtaInterferer& j : hp) {
      approx += static_cast<long double>(j.wcet) / static_cast<long double>(j.period);
    }
    if (approx > 1.0L - 1e-9L) {
      UtilizationSum u;
      for (const RtaInterferer& j : hp) u.add(j.wcet, j.period);
      const UtilVerdict v = u.verdict();
      if (v == UtilVerdict::above_one || v == UtilVerdict::exactly_one) return out;
    }
  }
  // Termination: R never decreases (every term is monotone in R) and each non-final step raises
  // it by at least 1 ns while R ≤ D_i, so at most D_i steps — which can be ~2^63, hence the cap.
  for (std::uint64_t step = 0; step < kRtaIterationCap; ++step) {
    Wide next = wcet;
    // ⌈R/T_j⌉ by checked_math.hpp's exact ceil_div (0 ≤ R ≤ D < 2^63, T_j > 0); the product is
    // exact in 128 bits.
    for (const RtaInterferer& j : hp) {
      next += ceil_div(response, j.period) * j.wcet;
      // Stopping as soon as the partial sum passes D_i is both the spec'd early exit and what
      // keeps `next` below 2^127: each term is < 2^126 and is added to a value ≤ D_i < 2^63.
      if (next > deadline) return out;
    }
    if (next == response) {
      out.status = RtaStatus::met;
      out.response = Duration(static_cast<std::int64_t>(response));
      return out;
    }
    response = next;
  }
  out.status = RtaStatus::capped;
  return out;
}

RtaResult response_time_result(const std::vector<RtaTask>& core, std::size_t i) {
  if (i >= core.size()) throw std::invalid_argument("rta: task index out of range");
  for (std::size_t j = 0; j < core.size(); ++j) check_task(core[j], j);
  const RtaTask& self = core[i];
  std::vector<RtaInterferer> hp;
  for (std::size_t j = 0; j < core.size(); ++j) {
    if (j == i || core[j].priority < self.priority) continue;
    hp.push_back({core[j].wcet.count(), core[j].period.count()});
  }
  return fixed_point_response(self.wcet.count(), self.deadline.count(),
                              rta_start(self.wcet.count(), hp), hp);
}

std::optional<Duration> response_time(const std::vector<RtaTask>& core, std::size_t i) {
  const RtaResult r = response_time_result(core, i);
  if (r.status != RtaStatus::met) return std::nullopt;
  return r.response;
}

std::vector<std::optional<Duration>> response_times(const std::vector<RtaTask>& core) {
  std::vector<std::optional<Duration>> out;
  out.reserve(core.size());
  for (std::size_t i = 0; i < core.size(); ++i) out.push_back(response_time(core, i));
  return out;
}

bool all_schedulable(const std::vector<std::optional<Duration>>& responses) {
  for (const auto& r : responses) {
    if (!r) return false;
  }
  return true;
}

}  // namespace rtpar::analysis
