// test_cpu_budget.cpp — CpuBudget: monitor records a job's CPU time beyond its budget; enforce
// demotes a SCHED_FIFO thread to SCHED_OTHER when the budget is spent and restores its policy and
// priority when the job ends; what a begin/end pair costs (printed: docs/reliability.md cites it).
#include <doctest/doctest.h>

#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "platform/cpu_budget.hpp"
#include "platform/rt_thread.hpp"
#include "rtpar/error.hpp"
#include "rtpar/time.hpp"

using rtpar::detail::CpuBudget;

namespace {

constexpr std::int64_t kMs = 1'000'000;

// burn consumes ns of the calling thread's CPU time, recording whether it was seen demoted.
void burn(std::int64_t ns, bool* seen_other = nullptr) {
  const std::int64_t until = rtpar::thread_cpu_now() + ns;
  while (rtpar::thread_cpu_now() < until) {
    if (seen_other != nullptr && sched_getscheduler(0) == SCHED_OTHER) *seen_other = true;
  }
}

}  // namespace

TEST_CASE("cpu budget: monitor records the excess over the charged time, beyond the margin") {
  CpuBudget budget(/*enforce=*/false, 2 * kMs, 100'000);
  budget.begin();
  burn(kMs);
  CHECK(budget.end() == 0);
  budget.begin();
  burn(5 * kMs);
  const std::int64_t excess = budget.end();
  CHECK(excess >= 3 * kMs);  // 5 ms used, 2 ms charged
  CHECK(budget.overruns() == 1);
  CHECK(budget.max_excess_ns() == excess);
  CHECK(budget.demoted_ns() == 0);
}

TEST_CASE("cpu budget: enforce demotes a SCHED_FIFO thread at expiry and restores it at the end") {
  bool seen_other = false;
  int policy_after = -1;
  int priority_after = -1;
  std::int64_t demoted_ns = 0;
  std::int64_t excess = 0;
  bool within_demoted = false;
  std::int64_t within_excess = -1;
  rtpar::ThreadConfig config;
  config.sched = rtpar::SchedClass::fifo;
  config.priority = 7;
  config.name = "budget-test";
  try {
    rtpar::detail::RtThread thread(config, [&] {
      CpuBudget budget(/*enforce=*/true, kMs, 20'000);
      budget.begin();
      burn(4 * kMs, &seen_other);
      excess = budget.end();
      sched_param param{};
      policy_after = sched_getscheduler(0);
      sched_getparam(0, &param);
      priority_after = param.sched_priority;
      demoted_ns = budget.demoted_ns();
      // A job within its budget is never demoted, and the timer of the last job does not fire
      // between jobs.
      budget.begin();
      burn(kMs / 2, &within_demoted);
      within_excess = budget.end();
      burn(2 * kMs, &within_demoted);
    });
    thread.join();
  } catch (const rtpar::EnvironmentError& e) {
    MESSAGE("SCHED_FIFO not permitted (" << e.what() << "): enforcement not checked");
    return;
  }
  CHECK(seen_other);
  CHECK(policy_after == SCHED_FIFO);
  CHECK(priority_after == 7);
  CHECK(demoted_ns > 0);
  CHECK(excess >= 2 * kMs);
  CHECK_FALSE(within_demoted);
  CHECK(within_excess == 0);
}

TEST_CASE("cpu budget: cost of one job's begin and end") {
  constexpr int kJobs = 5'000;
  for (const bool enforce : {false, true}) {
    CpuBudget budget(enforce, 10 * kMs, 20'000);
    std::vector<std::int64_t> costs;
    costs.reserve(kJobs);
    for (int i = 0; i < kJobs; ++i) {
      const std::int64_t t0 = rtpar::monotonic_now();
      budget.begin();
      (void)budget.end();
      costs.push_back(rtpar::monotonic_now() - t0);
    }
    std::sort(costs.begin(), costs.end());
    MESSAGE((enforce ? "enforce" : "monitor")
            << ": begin+end p50 " << costs[kJobs / 2] << " ns, p99 " << costs[kJobs * 99 / 100]
            << " ns, max " << costs.back() << " ns");
    // A sanity bound only (a shared machine): a few system calls, far below a millisecond.
    CHECK(costs[kJobs / 2] < kMs);
  }
}
