// rta.hpp — exact fixed-priority response-time analysis (RTA) of sequential tasks on one core.
//
// The analysis is the classic fixed-point iteration of Joseph & Pandya (1986) and Audsley, Burns,
// Richardson, Tindell & Wellings (1993). It is exact for preemptive fixed-priority scheduling of
// independent sporadic tasks with constrained deadlines (D ≤ T) on one core, which is what a
// SCHED_FIFO core running light (sequential) tasks is. It is kept generic on purpose: it knows
// nothing about TaskSpec, planners or SCHED_FIFO ranges, only {C, T, D, priority} per task.
//
// Termination: every iteration stops as soon as R > D, and after kRtaIterationCap steps at the
// latest (then the task counts as not schedulable, with RtaStatus::capped so the caller can say
// why). The cap is a guard, not the usual exit: a start value below the fixed point by a known
// bound (see rta_start) and the utilisation test make typical analyses take a few dozen steps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "rtpar/time.hpp"

namespace rtpar::analysis {

// kRtaIterationCap is the most fixed-point steps one response-time computation may take. With
// R ≤ D ≤ 2^63 ns the plain iteration could otherwise take up to D / min C steps (hours for a
// nearly full core and a task with a very long deadline); one step costs O(|hp|).
inline constexpr std::uint64_t kRtaIterationCap = 1'000'000;

// kRtaCapReason is the plan reason of a task whose analysis stopped at kRtaIterationCap.
inline constexpr const char* kRtaCapReason =
    "not schedulable: analysis iteration cap reached (the response-time iteration did not settle "
    "within 1000000 steps)";

// RtaTask is one sequential task as the RTA sees it. All values are exact integer nanoseconds.
struct RtaTask {
  Duration wcet{0};      // C_i ≥ 0: worst-case execution time on this core
  Duration period{0};    // T_i > 0: minimum inter-arrival time
  Duration deadline{0};  // D_i with 0 < D_i ≤ T_i (constrained deadline)
  int priority = 0;      // larger = more urgent (SCHED_FIFO sense); equal priorities interfere
};

// RtaInterferer is one higher- (or equal-) priority task as seen by the task under analysis.
struct RtaInterferer {
  std::int64_t wcet = 0;    // C_j ≥ 0
  std::int64_t period = 0;  // T_j > 0
};

// RtaStatus is how a response-time computation ended.
enum class RtaStatus {
  met,     // the least fixed point R ≤ D was reached: R is the exact worst-case response
  missed,  // R > D (or no fixed point exists): not schedulable
  capped,  // kRtaIterationCap steps without settling: not schedulable (conservative)
};

// RtaResult is a response-time computation's outcome; response is meaningful only when met.
struct RtaResult {
  RtaStatus status = RtaStatus::missed;
  Duration response{0};
};

// rta_start is a lower bound of the least fixed point of R = C + Σ_{j∈hp} ⌈R/T_j⌉·C_j that the
// iteration may start from: max(C + Σ C_j, ⌈C / (1 − U_hp)⌉ − 1) when U_hp < 1 (from
// ⌈R/T_j⌉·C_j ≥ R·U_j, any fixed point satisfies R ≥ C + R·U_hp; Sjödin & Hansson, RTSS 1998,
// §3 use the same bound to start the iteration). The −1 and a relative margin absorb the rounding
// of the long double evaluation, so the value never exceeds the exact fixed point.
std::int64_t rta_start(std::int64_t wcet, const std::vector<RtaInterferer>& hp);

// fixed_point_response iterates R = C + Σ_{j∈hp} ⌈R/T_j⌉·C_j from `start` (which must not exceed
// the least fixed point: C itself, rta_start, or the response of the same task under a subset of
// `hp` all qualify, since the right-hand side is monotone in R and in hp) and stops as soon as
// R > deadline (missed), at the fixed point (met) or after kRtaIterationCap steps (capped).
// If U_hp ≥ 1 and C > 0 there is no fixed point at all (R ≥ C + R·U_hp > R): missed at once.
// Exact 128-bit arithmetic; the early exit keeps every partial sum below 2^127.
RtaResult fixed_point_response(std::int64_t wcet, std::int64_t deadline, std::int64_t start,
                               const std::vector<RtaInterferer>& hp);

// response_time_result is the full outcome of the RTA of core[i] when all of `core` shares one
// core: hp(i) = every j ≠ i with priority_j ≥ priority_i, iterated from rta_start.
//
// Formula (Joseph & Pandya 1986; Audsley et al. 1993):
//   R = C_i + Σ_{j ∈ hp(i)} ceil(R / T_j) · C_j,  iterated to the least fixed point,
// stopping as soon as R > D_i. Putting equal-priority tasks in each other's hp set is pessimistic
// but safe for SCHED_FIFO, where an equal-priority job that is already queued runs first.
// Conditions: preemptive fixed priorities, independent tasks (no blocking), constrained deadlines
// D ≤ T, synchronous release as the critical instant. Throws std::invalid_argument if a task
// violates 0 < T, 0 < D ≤ T, 0 ≤ C.
RtaResult response_time_result(const std::vector<RtaTask>& core, std::size_t i);

// response_time is response_time_result as an optional: the worst-case response time of core[i],
// or nullopt when it exceeds core[i].deadline or the iteration cap was reached.
std::optional<Duration> response_time(const std::vector<RtaTask>& core, std::size_t i);

// response_times runs response_time for every task on the core (result[i] for core[i]).
std::vector<std::optional<Duration>> response_times(const std::vector<RtaTask>& core);

// all_schedulable says whether every entry of a response_times result has a response.
bool all_schedulable(const std::vector<std::optional<Duration>>& responses);

}  // namespace rtpar::analysis
