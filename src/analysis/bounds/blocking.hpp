// blocking.hpp — the blocking term of a shared lock under the priority-ceiling protocol on one
// core, and the fixed-priority response-time analysis that charges it.
//
// Source: Sha, Rajkumar & Lehoczky, "Priority Inheritance Protocols: An Approach to Real-Time
// Synchronization" (IEEE Trans. Computers, 1990), §IV (the priority ceiling protocol: a job is
// blocked for at most one critical section of one lower-priority job, Theorem 10) and §V (the
// schedulability test with the blocking term B_i); Baker, "Stack-Based Resource Allocation
// Policy for Real-Time Processes" (Real-Time Systems, 1991), §5 (the stack resource policy gives
// the same single-blocking property, and blocking happens before the job starts). rtpar's lock
// runs the immediate form, priority ceiling emulation (POSIX PTHREAD_PRIO_PROTECT: the holder
// runs at the ceiling from the moment it takes the lock), for which Baker's argument applies
// verbatim: a lower-priority job that could block i must already hold a lock whose ceiling is ≥
// prio(i) when i is released, otherwise it cannot run again before i completes.
//
// Conditions (the caller must establish them, or refuse): every user of every lock analysed here
// is a sequential task (one thread) on the same single core, scheduled by preemptive fixed
// priorities (SCHED_FIFO), the lock's ceiling is the highest priority of its users (what
// ChannelSet gives it), the task under analysis does not suspend (it never waits for a lock held
// on another core), and hold bounds the execution inside one critical section. Nested critical
// sections are covered by the outermost lock's hold. Constrained deadlines D ≤ T.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/bounds/rta.hpp"

namespace rtpar::analysis {

// LocalLock is one lock whose users all run on the core under analysis, as the protocol sees it.
struct LocalLock {
  std::int64_t hold = 0;             // longest execution inside one critical section, ns (> 0)
  int ceiling = 0;                   // highest priority of its users
  std::vector<int> user_priorities;  // the priority of each user (writer and readers)
};

// BlockingTerm is B_i and the lock that gives it (none when B_i = 0).
struct BlockingTerm {
  std::int64_t ns = 0;
  std::optional<std::size_t> lock;  // index into the locks given to pcp_blocking
};

// pcp_blocking is B_i for a task of priority `priority` on a core whose locks are `locks`:
//   B_i = max { hold(ℓ) : ceiling(ℓ) ≥ prio(i) and some user of ℓ has priority < prio(i) }
// (0 when no lock qualifies). A user of equal priority is not a blocker: SCHED_FIFO already
// charges it as interference (rta.hpp puts equal priorities in hp). i need not use ℓ itself: a
// holder boosted to a ceiling ≥ prio(i) delays every task up to that ceiling. Throws
// std::invalid_argument for a hold ≤ 0.
BlockingTerm pcp_blocking(int priority, const std::vector<LocalLock>& locks);

// blocked_response_time is response_time_result with the blocking term of core[i] charged:
//   R_i = C_i + B_i + Σ_{j ∈ hp(i)} ⌈R_i / T_j⌉ · C_j   (Sha et al. 1990, §V; Audsley et al. 1993)
// iterated to the least fixed point, stopping as soon as R > D_i. The task's own critical
// sections are part of C_i. C_i + B_i is checked for overflow (a sum above 2^63 − 1 ns is a miss).
RtaResult blocked_response_time(const std::vector<RtaTask>& core, std::size_t i,
                                std::int64_t blocking);

}  // namespace rtpar::analysis
