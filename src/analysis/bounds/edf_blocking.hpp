// edf_blocking.hpp — EDF schedulability on one core when jobs run non-preemptive sections: the
// processor-demand criterion with a blocking term.
//
// Source: Baruah, "Resource Sharing in EDF-scheduled Systems: A Closer Look" (RTSS 2006), §3–4,
// and Baruah, "The Limited-Preemption Uniprocessor Scheduling of Sporadic Task Systems" (ECRTS
// 2005), Thm 1: preemptive EDF of constrained-deadline sporadic tasks in which a job may run a
// non-preemptive section of at most b_j ns is schedulable if, for every t > 0,
//     h(t) + B(t) ≤ t,   B(t) = max{ b_j : D_j > t }  (0 when there is none),
// h(t) the demand bound of edf_demand.hpp. Why only D_j > t: a job that can block the window of
// length t was released before the window and has not finished, so its absolute deadline lies
// past the window's end only if D_j > t; a job of a shorter relative deadline that is still
// pending had its deadline inside the window and is part of the busy interval, i.e. of h. A
// section of a thread outside the band that still runs above it (an MSRP request of a
// static-priority task on the core) can block at any t: its DemandBlocker has deadline
// kBlockerAlways.
//
// Conditions: one core; tasks 0 ≤ C, 0 < D ≤ T; each b_j bounds one non-preemptive section,
// which the runtime runs above every EDF thread of the core (lock.cpp raises the holder to the
// MSRP priority, at least the band's dispatch priority, and edf_band.cpp does not re-rank it
// while it is inside); B(t) is non-increasing and h(t) − t decreases between the absolute
// deadlines, so checking every absolute deadline d ≤ L suffices, L the busy period with the
// largest blocking added (w = max b + Σ ⌈w/T_i⌉·C_i, least fixed point).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/bounds/edf_demand.hpp"

namespace rtpar::analysis {

// kBlockerAlways is the DemandBlocker::deadline of a section that blocks at every t.
inline constexpr std::int64_t kBlockerAlways = INT64_MAX;

// DemandBlocker is one non-preemptive section that can delay the core's EDF jobs: its length
// and the relative deadline of the task that runs it (kBlockerAlways: a task outside the band).
struct DemandBlocker {
  std::int64_t length = 0;
  std::int64_t deadline = kBlockerAlways;
};

// blocking_at is B(t) = max{ length : deadline > t } over `blockers` (0 when none).
std::int64_t blocking_at(const std::vector<DemandBlocker>& blockers, std::int64_t t);

// edf_demand_test_blocking decides h(t) + B(t) ≤ t at every absolute deadline d ≤ L (see the
// file comment), visiting the deadlines in increasing order with the demand accumulated as it
// goes (O(log n) per deadline). Without a blocker of positive length it is edf_demand_test.
// Refuses (never admits) when U > 1, when the busy period does not close (U = 1 with blocking
// does not: pessimistic there, never optimistic), and after iteration_cap steps (capped).
// Throws std::invalid_argument when a task breaks 0 ≤ C, 0 < D ≤ T or a blocker has length < 0.
DemandVerdict edf_demand_test_blocking(const std::vector<DemandTask>& tasks,
                                       const std::vector<DemandBlocker>& blockers,
                                       std::uint64_t iteration_cap = kDemandIterationCap);

}  // namespace rtpar::analysis
