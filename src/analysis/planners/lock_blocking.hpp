// lock_blocking.hpp — what the planners do with a task set's `lock` channels: the partitioned
// planner charges the blocking of local locks (analysis/bounds/blocking.hpp); every lock it
// cannot analyse, and every lock under the other planners, refuses the set with a reason naming
// the lock (docs/analysis.md, "Blocking (shared locks)").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/planners/partitioned_part.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// has_lock_channels says whether the set has any channel of kind "lock".
bool has_lock_channels(const TaskSet& set);

// refuse_lock_channels makes `plan` not schedulable when the set has lock channels, for a planner
// (`planner`, as spelt in [system]) whose test assumes independent tasks: each user of each lock
// gets a reason naming the lock (unless it already has one) and the plan a note. It never admits
// a set with a shared real-time lock on an independent-task test.
void refuse_lock_channels(Plan& plan, const TaskSet& set, std::string_view planner);

// LockCharge is what the partitioned planner does about the set's locks, per task (set order):
// the blocking term B_i charged to its bound with the lock that gives it, or a refusal.
struct LockCharge {
  std::vector<std::int64_t> blocking;               // B_i in ns (0: none)
  std::vector<std::string> blocking_lock;           // the lock of B_i ("" when 0)
  std::vector<std::optional<std::string>> refusal;  // why the set's locks cannot be analysed
};

// partitioned_lock_charge classifies each lock channel for plan_partitioned. A lock is local
// when all its users are static-priority tasks with one thread on one and the same core; then
// every single-thread static-priority task on that core gets B_i = pcp_blocking (the lock's
// ceiling is its users' highest priority, as ChannelSet sets it at run time). Refused, naming
// the lock: a user in the EDF band, a user with several threads or cores, users on different
// cores (a global lock), or a parallel task (several threads) exposed to a local lock's ceiling.
// Parts that already have a reason are skipped (the plan is refused anyway).
LockCharge partitioned_lock_charge(const TaskSet& set, const std::vector<Part>& parts);

}  // namespace rtpar::analysis
