// edf_demand.hpp — exact EDF schedulability of sporadic tasks on one core: the processor demand
// criterion, evaluated with Zhang & Burns' Quick convergence Processor-demand Analysis (QPA).
//
// Generic on purpose: it knows only {C, D, T} per task, in integer nanoseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rtpar::analysis {

// DemandTask is one sporadic task as the demand test sees it: 0 ≤ C, 0 < D ≤ T (constrained).
struct DemandTask {
  std::int64_t wcet = 0;
  std::int64_t deadline = 0;
  std::int64_t period = 0;
};

// demand_bound is h(t) = Σ_i max(0, ⌊(t − D_i)/T_i⌋ + 1)·C_i, the processor demand of jobs
// released at or after 0 with deadlines at or before t under synchronous release (Baruah, Rosier
// & Howell 1990, Thm 3.1). Exact 128-bit arithmetic, saturated at 2^125 (far above any t).
__int128 demand_bound(const std::vector<DemandTask>& tasks, std::int64_t t);

// kDemandIterationCap bounds each loop of edf_demand_test (busy-period steps, QPA steps); each
// step costs O(n). Reaching it ends in "not schedulable" with kDemandCapReason, never a hang.
inline constexpr std::uint64_t kDemandIterationCap = 1'000'000;

// kDemandCapReason is the DemandVerdict reason when a loop reached kDemandIterationCap.
inline constexpr const char* kDemandCapReason =
    "not schedulable: analysis iteration cap reached (the processor-demand test did not finish "
    "within 1000000 steps)";

// DemandVerdict is the outcome of the EDF test: schedulable, or the first failing interval.
struct DemandVerdict {
  bool schedulable = false;
  bool capped = false;                    // refused because a loop reached kDemandIterationCap
  std::optional<std::int64_t> failing_t;  // an interval length t with h(t) > t, when one exists
  std::string reason;                     // empty when schedulable
};

// edf_demand_test decides EDF schedulability on one core exactly (preemptive EDF, independent
// sporadic tasks with constrained deadlines):
//   1. U = Σ C_i/T_i > 1 ⇒ unschedulable (compared exactly as fractions, utilization.hpp);
//      if every D_i = T_i, U ≤ 1 ⇒ schedulable (Liu & Layland 1973, Thm 7), with no search;
//   2. else schedulable ⇔ h(t) ≤ t for every t ≤ L, where L is the synchronous busy period
//      w = Σ ⌈w/T_i⌉·C_i (least fixed point from Σ C_i), optionally tightened by
//      L_a = max(D_max, Σ (T_i − D_i)·U_i / (1 − U)) when U < 1 (Zhang & Burns 2009, Thm 2–3);
//   3. the t are visited by QPA (Zhang & Burns 2009, Thm 5): t ← max{d_k < L}; while
//      h(t) ≤ t and h(t) > d_min: t ← h(t) if h(t) < t, else max{d_k < t}; schedulable iff
//      h(t) ≤ d_min.
// Every loop is bounded by iteration_cap (kDemandIterationCap) (then: not schedulable, capped,
// kDemandCapReason); a busy period that does not close within the cap is replaced by L_a when U
// < 1. Throws std::invalid_argument when a task breaks 0 ≤ C, 0 < D ≤ T. `iteration_cap` exists for
// tests of the capped path; callers keep the default.
DemandVerdict edf_demand_test(const std::vector<DemandTask>& tasks,
                              std::uint64_t iteration_cap = kDemandIterationCap);

}  // namespace rtpar::analysis
