// server_interference.hpp — the kernel's highest-priority server (the fair server, or RT
// throttling's non-RT share) as interference on SCHED_FIFO tasks: its execution in a window, a
// parallel (DAG) job's response on dedicated cores under it, and the server as RTA tasks.
//
// Model (docs/analysis.md "Kernel interference"): on each core a server may run up to Q in every
// period P, above every SCHED_FIFO thread, and may defer its budget to the end of one period and
// run again at the start of the next (the deferrable server of Strosnider, Lehoczky & Sha, IEEE
// ToC 44(1), 1995; Linux's fair server is deferred, kernel/sched/deadline.c). Conditions: each
// replenishment gives at most Q, replenishments are at least P apart, and a replenished budget is
// used within P of its replenishment (the server meets its SCHED_DEADLINE deadline, being the only
// deadline entity on the core). All values are integer nanoseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bounds/rta.hpp"

namespace rtpar::analysis {

// PeriodicServer is a budget Q every period P, 0 < Q ≤ P, above every task of a core.
//
// deferred = true is the kernel's server (above): its budget may run late in one period and early
// in the next. deferred = false is a sliding-window bound: in *every* window of length P it runs
// at most Q — the measured supply loss of `rtpar calibrate --supply` (supply_server.hpp), which
// is a periodic task (Q, P) without jitter.
struct PeriodicServer {
  std::int64_t budget_ns = 0;  // Q
  std::int64_t period_ns = 0;  // P
  bool deferred = true;        // jitter P − Q (the kernel's server) or none (a sliding window)
  std::string what = "the kernel's server";  // what it stands for, in reasons and notes
};

// server_interference bounds the server's execution in any window of length t ≥ 0:
//   I(t) = min(t, Q·⌈(t + P − Q)/P⌉)      (deferred; Q·⌈t/P⌉ in place of the second term when not)
// the workload of a periodic task (Q, P) with release jitter J = P − Q (a deferred budget runs
// back to back with the next one): Audsley, Burns, Richardson, Tindell & Wellings, "Applying new
// scheduling theory to static priority pre-emptive scheduling", SEJ 8(5) 1993, §3 (jitter), and
// Strosnider et al. 1995 §4 (a deferrable server interferes as a task with jitter P − Q). The min
// with t: nothing runs more than the window. Monotone non-decreasing in t; exact in 128 bits.
// Throws std::invalid_argument unless 0 < Q ≤ P and t ≥ 0.
std::int64_t server_interference(const PeriodicServer& server, std::int64_t t);

// DagResponse is a heavy task's bound under the server, or why there is none.
struct DagResponse {
  std::optional<std::int64_t> response_ns;  // least fixed point ≤ D, if any
  std::int64_t iterations = 0;              // fixed-point steps taken
  std::string reason;                       // when response_ns is empty
};

// kMaxServerIterations caps every fixed-point iteration here; reaching it means "no bound".
inline constexpr std::int64_t kMaxServerIterations = 1'000'000;

// dag_response_with_server bounds the response of a DAG job (work C, span L) run by a greedy
// scheduler on m dedicated cores, each with its own server:
//   R = L + ⌈(C − L)/m⌉ + m·I(R)            (derivation: docs/analysis.md "Kernel interference")
// the least fixed point from R⁰ = L + ⌈(C − L)/m⌉, stopping once R > D or after
// kMaxServerIterations steps (both: no bound). m·I(R) and not I(R): a node preempted by the
// server on its core stays there (threads are pinned), so the critical path can wait on each of
// the m servers in turn. Needs 0 < L ≤ C, m ≥ 1, D > 0.
DagResponse dag_response_with_server(std::int64_t work_ns, std::int64_t span_ns, int cores,
                                     std::int64_t deadline_ns, const PeriodicServer& server);

// server_rta_tasks is the server as two RTA tasks above `priority_above` (which must exceed every
// task of the core): (Q, P) periodic plus one job of Q whose period `horizon_ns` is ≥ every
// deadline on the core; a server that is not deferred is the one task (Q, P), exactly. Their
// interference ⌈t/P⌉·Q + Q is ≥ Q·⌈(t + P − Q)/P⌉ (as ⌈a + b⌉ ≤ ⌈a⌉ + 1 for 0 ≤ b < 1), so the
// unchanged exact RTA (rta.hpp) with them added is a sound RTA with the server as the
// highest-priority task with jitter P − Q.
std::vector<RtaTask> server_rta_tasks(const PeriodicServer& server, std::int64_t horizon_ns,
                                      int priority_above);

}  // namespace rtpar::analysis
