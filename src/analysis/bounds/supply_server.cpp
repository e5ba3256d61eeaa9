// supply_server.cpp — see supply_server.hpp for the model and its sources.
#include "analysis/bounds/supply_server.hpp"

#include <algorithm>

namespace rtpar::analysis {

std::optional<PeriodicServer> supply_server(const OverheadProfile& profile, const TaskSet& set) {
  if (profile.supply.empty() || set.tasks.empty()) return std::nullopt;
  std::optional<PeriodicServer> best;
  // The best score so far, the largest I(D)/D over the tasks, as the fraction num/den.
  __int128 best_num = 0;
  __int128 best_den = 1;
  for (const SupplyLoss& s : profile.supply) {
    if (s.loss_ns <= 0) return std::nullopt;
    const PeriodicServer candidate{s.loss_ns, s.window_ns, false, "the measured supply loss"};
    __int128 num = 0;
    __int128 den = 1;
    for (const TaskSpec& t : set.tasks) {
      const std::int64_t d = std::max<std::int64_t>(1, t.deadline.count());
      const __int128 i = server_interference(candidate, d);
      if (i * den > num * d) {  // i/d > num/den, both ≤ 1 (I(t) ≤ t): no overflow in 128 bits
        num = i;
        den = d;
      }
    }
    // Entries are in ascending windows, so a tie keeps the shorter one.
    if (!best || num * best_den < best_num * den) {
      best = candidate;
      best_num = num;
      best_den = den;
    }
  }
  return best;
}

std::optional<PeriodicServer> combined_server(const std::optional<PeriodicServer>& kernel,
                                              const std::optional<PeriodicServer>& supply) {
  if (!kernel) return supply;
  if (!supply) return kernel;
  PeriodicServer out;
  out.period_ns = std::min(kernel->period_ns, supply->period_ns);
  // 2·Q₁ + Q₂ ≤ 3·2^63: 128 bits, then capped at P.
  const __int128 q = __int128{2} * kernel->budget_ns + supply->budget_ns;
  out.budget_ns = static_cast<std::int64_t>(std::min<__int128>(q, out.period_ns));
  out.deferred = false;
  out.what = "the kernel's server and the measured supply loss together";
  return out;
}

}  // namespace rtpar::analysis
