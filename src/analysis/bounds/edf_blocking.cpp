// edf_blocking.cpp — see edf_blocking.hpp.
#include "analysis/bounds/edf_blocking.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <stdexcept>
#include <utility>

#include "analysis/bounds/utilization.hpp"
#include "core/checked_math.hpp"

namespace rtpar::analysis {

std::int64_t blocking_at(const std::vector<DemandBlocker>& blockers, std::int64_t t) {
  std::int64_t b = 0;
  for (const DemandBlocker& x : blockers) {
    if (x.deadline > t) b = std::max(b, x.length);
  }
  return b;
}

DemandVerdict edf_demand_test_blocking(const std::vector<DemandTask>& tasks,
                                       const std::vector<DemandBlocker>& blockers,
                                       std::uint64_t iteration_cap) {
  std::int64_t b_max = 0;
  for (const DemandBlocker& x : blockers) {
    if (x.length < 0) throw std::invalid_argument("edf_demand_test_blocking: a length is < 0");
    b_max = std::max(b_max, x.length);
  }
  if (b_max == 0) return edf_demand_test(tasks, iteration_cap);
  for (const DemandTask& t : tasks) {
    if (t.wcet < 0 || t.period <= 0 || t.deadline <= 0 || t.deadline > t.period) {
      throw std::invalid_argument("edf_demand_test_blocking: need 0 ≤ C and 0 < D ≤ T");
    }
  }
  DemandVerdict verdict;
  std::vector<DemandTask> busy;
  UtilizationSum sum;
  for (const DemandTask& t : tasks) {
    if (t.wcet == 0) continue;
    busy.push_back(t);
    sum.add(t.wcet, t.period);
  }
  if (busy.empty()) {
    verdict.schedulable = true;  // no job to delay
    return verdict;
  }
  if (sum.verdict() == UtilVerdict::above_one) {
    verdict.reason = "utilization exceeds 1";
    return verdict;
  }

  // L: the busy period that starts with the largest section, w = b_max + Σ ⌈w/T_i⌉·C_i.
  constexpr __int128 kCap = static_cast<__int128>(1) << 62;
  __int128 w = b_max;
  for (const DemandTask& t : busy) w += t.wcet;
  bool closed = false;
  for (std::uint64_t step = 0; step < iteration_cap && w <= kCap; ++step) {
    __int128 next = b_max;
    for (const DemandTask& t : busy) next += ceil_div(w, t.period) * t.wcet;
    if (next == w) {
      closed = true;
      break;
    }
    w = next;
  }
  if (!closed) {
    verdict.capped = w <= kCap;
    verdict.reason = verdict.capped ? kDemandCapReason
                                    : "the busy period with the blocking does not close "
                                      "(utilization 1 leaves no room for a non-preemptive section)";
    return verdict;
  }
  const auto limit = static_cast<std::int64_t>(w);

  // B(t) as a step function: blockers by deadline, suffix maxima of their lengths.
  std::vector<DemandBlocker> sorted = blockers;
  std::sort(sorted.begin(), sorted.end(),
            [](const DemandBlocker& a, const DemandBlocker& b) { return a.deadline < b.deadline; });
  std::vector<std::int64_t> suffix(sorted.size() + 1, 0);
  for (std::size_t k = sorted.size(); k-- > 0;) {
    suffix[k] = std::max(suffix[k + 1], sorted[k].length);
  }
  const auto b_of = [&](std::int64_t t) {
    const auto it =
        std::upper_bound(sorted.begin(), sorted.end(), t,
                         [](std::int64_t x, const DemandBlocker& b) { return x < b.deadline; });
    return suffix[static_cast<std::size_t>(it - sorted.begin())];
  };

  // Absolute deadlines in increasing order (a min-heap of each task's next one); h accumulates.
  using Next = std::pair<std::int64_t, std::size_t>;  // deadline, task
  std::priority_queue<Next, std::vector<Next>, std::greater<>> heap;
  for (std::size_t i = 0; i < busy.size(); ++i) heap.emplace(busy[i].deadline, i);
  __int128 h = 0;
  std::uint64_t steps = 0;
  while (!heap.empty() && heap.top().first <= limit) {
    if (++steps > iteration_cap) {
      verdict.capped = true;
      verdict.reason = kDemandCapReason;
      return verdict;
    }
    const std::int64_t t = heap.top().first;
    while (!heap.empty() && heap.top().first == t) {
      const std::size_t i = heap.top().second;
      heap.pop();
      h += busy[i].wcet;
      // An overflowing next deadline lies past limit (≤ 2^62) anyway: the task is done.
      const std::optional<std::int64_t> next = checked_add(t, busy[i].period);
      if (next) heap.emplace(*next, i);
    }
    if (h + b_of(t) > t) {
      verdict.failing_t = t;
      verdict.reason = "processor demand plus blocking exceeds the interval";
      return verdict;
    }
  }
  verdict.schedulable = true;
  return verdict;
}

}  // namespace rtpar::analysis
