// server_interference.cpp — see server_interference.hpp for the formulas and their sources.
#include "analysis/bounds/server_interference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/checked_math.hpp"
#include "rtpar/time.hpp"

namespace rtpar::analysis {
namespace {

// Wide holds every intermediate: Q·⌈(t + P − Q)/P⌉ < 2^63 · 2^64.
using Wide = __int128;

void check_server(const PeriodicServer& s) {
  if (s.budget_ns <= 0 || s.period_ns <= 0 || s.budget_ns > s.period_ns) {
    throw std::invalid_argument(fmt::format("server: needs 0 < Q <= P (got Q = {} ns, P = {} ns)",
                                            s.budget_ns, s.period_ns));
  }
}

}  // namespace

std::int64_t server_interference(const PeriodicServer& server, std::int64_t t) {
  check_server(server);
  if (t < 0) throw std::invalid_argument("server: window length must be >= 0");
  const Wide q = server.budget_ns, p = server.period_ns;
  const Wide jitter = server.deferred ? p - q : 0;
  const Wide bound = q * ceil_div(Wide(t) + jitter, p);  // ≤ 2^63 · 2^64: fits 128 bits
  return static_cast<std::int64_t>(std::min<Wide>(t, bound));
}

DagResponse dag_response_with_server(std::int64_t work_ns, std::int64_t span_ns, int cores,
                                     std::int64_t deadline_ns, const PeriodicServer& server) {
  check_server(server);
  if (span_ns <= 0 || span_ns > work_ns || cores < 1 || deadline_ns <= 0) {
    throw std::invalid_argument("dag_response_with_server: needs 0 < L <= C, m >= 1, D > 0");
  }
  DagResponse out;
  const Wide m = cores;
  const Wide base = Wide(span_ns) + ceil_div(Wide(work_ns) - span_ns, m);  // Graham's bound
  const Wide d = deadline_ns;
  Wide r = base;
  // Termination: every step either repeats R (the fixed point) or raises it, since the right side
  // is monotone in R; steps stop once R > D or after kMaxServerIterations.
  while (out.iterations < kMaxServerIterations) {
    if (r > d) {
      out.reason = fmt::format(
          "with {} ({} every {} per core) the bound L + ⌈(C − L)/m⌉ + m·I(R) exceeds D = {} on "
          "m = {} cores",
          server.what, format_duration(Duration(server.budget_ns), 3),
          format_duration(Duration(server.period_ns), 3), format_duration(Duration(deadline_ns), 3),
          cores);
      return out;
    }
    ++out.iterations;
    // r ≤ d < 2^63 here, so I(r) < 2^63 and m·I(r) < 2^94: no overflow in 128 bits.
    const Wide next = base + m * server_interference(server, static_cast<std::int64_t>(r));
    if (next == r) {
      out.response_ns = static_cast<std::int64_t>(r);
      return out;
    }
    r = next;
  }
  out.reason =
      fmt::format("no fixed point within {} iterations (the iteration cap)", kMaxServerIterations);
  return out;
}

std::vector<RtaTask> server_rta_tasks(const PeriodicServer& server, std::int64_t horizon_ns,
                                      int priority_above) {
  check_server(server);
  if (horizon_ns <= 0) throw std::invalid_argument("server_rta_tasks: horizon must be > 0");
  const Duration q(server.budget_ns), p(server.period_ns);
  // The one-off job of Q: ⌈R/T⌉ = 1 for every 0 < R ≤ horizon, and RTA stops at R > D ≤ horizon.
  if (!server.deferred) return {RtaTask{q, p, p, priority_above}};
  const Duration h(std::max(horizon_ns, server.budget_ns));
  return {RtaTask{q, p, p, priority_above}, RtaTask{q, h, h, priority_above}};
}

}  // namespace rtpar::analysis
