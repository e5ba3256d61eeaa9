// federated.cpp — plan_federated: federated scheduling of Li, Chen, Agrawal, Lu, Gill & Saifullah,
// "Analysis of federated and global scheduling for parallel real-time tasks", ECRTS'14
// (summarised in RTWS §V-A). Heavy tasks get n dedicated cores run by a greedy scheduler;
// light tasks are first-fit on the remaining cores (analysis/federated_common.hpp).
#include <cassert>
#include <climits>
#include <cstdint>

#include <fmt/format.h>

#include "analysis/planners/federated_common.hpp"
#include "core/checked_math.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar {
namespace {

// Wide is the exact integer type of the core-count arithmetic (a + b − 1 may exceed int64).
using Wide = __int128;

// size_federated applies the federated core count and Graham's greedy bound to a heavy task.
//
//   n = ceil((C − L) / (D − L))          Li et al. ECRTS'14 (RTWS §V-A); needs L < D
//   R ≤ L + ceil((C − L) / n)            Graham's bound for a greedy scheduler on n cores: every
//                                        instant either all n cores work or the critical path
//                                        advances, so R ≤ L + (C − L)/n. Rounding up keeps it
//                                        an upper bound in whole nanoseconds.
// R ≤ D by construction: n ≥ (C − L)/(D − L) gives (C − L)/n ≤ D − L, and D − L is an integer,
// so the ceiling is ≤ D − L too. Conditions: C, L, D integer ns with 0 < L ≤ C and C > D (heavy),
// a greedy (work-conserving) scheduler on exactly n dedicated cores, no overheads.
analysis::HeavySizing size_federated(const TaskSpec& task) {
  const std::int64_t c = task.work.count(), l = task.span.count(), d = task.deadline.count();
  analysis::HeavySizing out;
  if (l >= d) {
    out.infeasible = fmt::format(
        "critical path L={} is not shorter than D={}: no number of cores suffices "
        "(federated scheduling needs L < D)",
        format_duration(task.span), format_duration(task.deadline));
    return out;
  }
  const Wide n = ceil_div(Wide(c) - l, Wide(d) - l);  // ≥ 2, since C > D means C − L > D − L
  // A count beyond INT_MAX fits no machine; saturating keeps the "needs n cores" reason truthful
  // in spirit ("needs 2147483647 cores") without overflowing cores_needed.
  out.cores_needed = n > INT_MAX ? INT_MAX : static_cast<int>(n);
  const Wide bound = Wide(l) + ceil_div(Wide(c) - l, n);
  assert(bound <= d);  // see above; a failure here is an arithmetic bug, not bad input
  out.response_bound_ns = static_cast<std::int64_t>(bound);
  return out;
}

}  // namespace

Plan plan_federated(const TaskSet& set) {
  return analysis::plan_federated_server(set, std::nullopt);
}

namespace analysis {

HeavySizer federated_sizer() { return size_federated; }

Plan plan_federated_server(const TaskSet& set, const std::optional<PeriodicServer>& server) {
  return plan_federated_family(set, PlannerKind::federated, size_federated, server);
}

}  // namespace analysis
}  // namespace rtpar
