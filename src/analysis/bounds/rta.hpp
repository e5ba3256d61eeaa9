// rta.hpp — exact fixed-priority response-time analysis (RTA) of sequential tasks on one core.
//
// The analysis is the classic fixed-point iteration of Joseph & Pandya (1986) and Audsley, Burns,
// Richardson, Tindell & Wellings (1993). It is exact for preemptive fixed-priority scheduling of
// independent sporadic tasks with constrained deadlines (D ≤ T) on one core, which is what a
// SCHED_FIFO core running light (sequential) tasks is. It is kept generic on purpose: it knows
// nothing about TaskSpec, planners or SCHED_FIFO ranges, only {C, T, D, priority} per task.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "rtpar/time.hpp"

namespace rtpar::analysis {

// RtaTask is one sequential task as the RTA sees it. All values are exact integer nanoseconds.
struct RtaTask {
  Duration wcet{0};      // C_i ≥ 0: worst-case execution time on this core
  Duration period{0};    // T_i > 0: minimum inter-arrival time
  Duration deadline{0};  // D_i with 0 < D_i ≤ T_i (constrained deadline)
  int priority = 0;      // larger = more urgent (SCHED_FIFO sense); equal priorities interfere
};

// response_time is the worst-case response time of core[i] when all of `core` shares one core,
// or nullopt when it exceeds core[i].deadline (unschedulable).
//
// Formula (Joseph & Pandya 1986; Audsley et al. 1993):
//   R = C_i + Σ_{j ∈ hp(i)} ceil(R / T_j) · C_j,  iterated from R = C_i to the least fixed point,
// stopping as soon as R > D_i. hp(i) = every j ≠ i with priority_j ≥ priority_i. Putting
// equal-priority tasks in each other's hp set is pessimistic but safe for SCHED_FIFO, where an
// equal-priority job that is already queued runs first. Conditions: preemptive fixed priorities,
// independent tasks (no blocking), constrained deadlines D ≤ T, synchronous release as the
// critical instant. Throws std::invalid_argument if a task violates 0 < T, 0 < D ≤ T, 0 ≤ C.
std::optional<Duration> response_time(const std::vector<RtaTask>& core, std::size_t i);

// response_times runs response_time for every task on the core (result[i] for core[i]).
std::vector<std::optional<Duration>> response_times(const std::vector<RtaTask>& core);

// all_schedulable says whether every entry of a response_times result has a response.
bool all_schedulable(const std::vector<std::optional<Duration>>& responses);

}  // namespace rtpar::analysis
