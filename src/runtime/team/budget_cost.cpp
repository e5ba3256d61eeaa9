// budget_cost.cpp — measure_budget_cost (rtpar/tools/calibrate.hpp): what the CPU-time budget of
// `rtpar run` costs a thread, for `rtpar calibrate` to put in the overhead profile.
#include <sched.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "platform/cpu_budget.hpp"
#include "rtpar/time.hpp"
#include "rtpar/tools/calibrate.hpp"

namespace rtpar {

namespace {

// budget_distribution is the nearest-rank p50/p99/p99.9/max of samples (sorted here; not empty).
BudgetCost budget_distribution(std::vector<std::int64_t>& samples) {
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  // rank is the nearest rank ⌈q·n⌉ of q = num/den, as an index (n ≥ 1, so it is in [0, n)).
  const auto rank = [n](std::size_t num, std::size_t den) {
    const std::size_t r = (num * n + den - 1) / den;
    return std::max<std::size_t>(r, 1) - 1;
  };
  BudgetCost c;
  c.samples = static_cast<std::int64_t>(n);
  c.p50_ns = samples[rank(1, 2)];
  c.p99_ns = samples[rank(99, 100)];
  c.p999_ns = samples[rank(999, 1000)];
  c.max_ns = samples.back();
  return c;
}

}  // namespace

BudgetCosts measure_budget_cost(int jobs) {
  if (jobs < 1) throw std::invalid_argument("measure_budget_cost: jobs must be >= 1");
  BudgetCosts out;
  std::vector<std::int64_t> samples;
  samples.reserve(static_cast<std::size_t>(jobs));
  {
    // A budget no empty job can spend (1 s): the timer is armed and disarmed, never fires.
    detail::CpuBudget budget(/*enforce=*/true, 1'000'000'000, 0);
    for (int i = 0; i < jobs; ++i) {
      const std::int64_t t0 = monotonic_now();
      budget.begin();
      (void)budget.end();
      samples.push_back(monotonic_now() - t0);
    }
  }
  out.job = budget_distribution(samples);
  const int policy = sched_getscheduler(0);
  sched_param param{};
  if (policy == SCHED_FIFO && sched_getparam(0, &param) == 0) {
    samples.clear();
    const sched_param other{};
    for (int i = 0; i < jobs; ++i) {
      const std::int64_t t0 = monotonic_now();
      if (sched_setscheduler(0, SCHED_OTHER, &other) != 0) break;
      sched_setscheduler(0, SCHED_FIFO, &param);  // restoring a policy it had is always permitted
      samples.push_back(monotonic_now() - t0);
    }
    if (!samples.empty()) out.demotion = budget_distribution(samples);
  }
  return out;
}

}  // namespace rtpar
