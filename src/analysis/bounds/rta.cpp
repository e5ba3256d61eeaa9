// rta.cpp — exact fixed-priority response-time analysis on one core (see rta.hpp for the formula).
#include "analysis/bounds/rta.hpp"

#include <stdexcept>
#include <string>

namespace rtpar::analysis {
namespace {

// Wide is the integer type of every intermediate: ceil(R/T_j)·C_j can reach ~2^126 when both
// factors are near 2^63 ns, which int64 cannot hold but __int128 can.
using Wide = __int128;

// ceil_div is ceil(a / b) for a ≥ 0 and b > 0 in exact integer arithmetic.
Wide ceil_div(Wide a, Wide b) { return (a + b - 1) / b; }

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

std::optional<Duration> response_time(const std::vector<RtaTask>& core, std::size_t i) {
  if (i >= core.size()) throw std::invalid_argument("rta: task index out of range");
  for (std::size_t j = 0; j < core.size(); ++j) check_task(core[j], j);

  const RtaTask& self = core[i];
  const Wide deadline = self.deadline.count();
  Wide response = self.wcet.count();  // R^0 = C_i (Audsley et al. 1993)
  if (response > deadline) return std::nullopt;

  // Termination: R never decreases (every term is monotone in R) and each non-final step raises it
  // by at least 1 ns, while R ≤ D_i holds on every iteration that continues; so at most D_i steps.
  for (;;) {
    Wide next = self.wcet.count();
    for (std::size_t j = 0; j < core.size(); ++j) {
      if (j == i || core[j].priority < self.priority) continue;
      next += ceil_div(response, core[j].period.count()) * core[j].wcet.count();
      // Stopping as soon as the partial sum passes D_i is both the spec'd early exit and what
      // keeps `next` below 2^127: each term is < 2^126 and is added to a value ≤ D_i < 2^63.
      if (next > deadline) return std::nullopt;
    }
    if (next == response) return Duration(static_cast<std::int64_t>(response));
    response = next;
  }
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
