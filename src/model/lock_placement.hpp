// lock_placement.hpp — which protocol a `lock` channel runs, decided once from the plan's
// placement of its users, so that the planners (which charge it) and the runtime (which runs it)
// cannot disagree (docs/analysis.md, "Blocking (shared locks)").
#pragma once

#include <vector>

#include "rtpar/channel_kind.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// thread_cpus is the CPU of each thread a plan gives a task: its strands' distinct cores
// (strand-level plans), else thread_cores, else one thread per entry of `cores`.
std::vector<int> thread_cpus(const TaskPlan& task);

// lock_users is the set index of each real-time user of lock channel `c` (writer first, then the
// readers in order; "nonrt" and unknown names are skipped).
std::vector<int> lock_users(const ChannelSpec& c, const TaskSet& set);

// lock_protocol is LockProtocol::ceiling when every user of `c` has exactly one thread, runs at
// a static priority, and all of them run on one and the same CPU (a local lock), else
// LockProtocol::msrp (a global lock, or a lock of an EDF band: non-preemptive sections). A user
// the plan does not place (no CPU) makes it msrp.
LockProtocol lock_protocol(const ChannelSpec& c, const TaskSet& set, const Plan& plan);

// nonpreemptive_priority is the SCHED_FIFO priority an msrp request runs at: the highest priority
// the plan gives any task or strand (at least 1), so no thread of the task set preempts it — a
// running SCHED_FIFO thread is not preempted by one of equal priority (sched(7)).
int nonpreemptive_priority(const Plan& plan);

}  // namespace rtpar::model
