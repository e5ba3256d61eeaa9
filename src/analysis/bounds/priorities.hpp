// priorities.hpp — SCHED_FIFO priorities for the federated planners.
//
// Rules (docs/analysis.md, "Priorities"):
//  * heavy tasks above light tasks; within each group deadline-monotonic (shorter D = higher
//    priority), ties by name (lexicographically smaller = higher), then by file order;
//  * computed priorities are distinct and global: 90, 89, 88, ... in that order;
//  * if more than 90 tasks need a computed priority, global distinct values in 1..90 do not exist,
//    so priorities become per core instead: heavy tasks get 90 (they are alone on their cores) and
//    the light tasks of each core get 89, 88, ... in the same order (clamped at 1, see below);
//  * an explicit TaskSpec::priority replaces the computed value of that task; distinctness is then
//    the user's responsibility (the planner notes equal priorities sharing a core).
// The RTA always runs on these final priorities, so the analysis and the executor agree.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// kTopPriority is the highest priority rtpar computes. 91..99 stay free for the kernel's and the
// administrator's own SCHED_FIFO threads (IRQ threads, watchdogs), which must preempt tasks.
inline constexpr int kTopPriority = 90;

// kBottomPriority is the lowest valid SCHED_FIFO priority on Linux.
inline constexpr int kBottomPriority = 1;

// dm_before says whether task a (at file index ia) gets a higher priority than task b under
// deadline-monotonic order: shorter D first, then smaller name, then earlier in the file. The last
// key makes the order total so equal names still get distinct, reproducible ranks.
bool dm_before(const TaskSpec& a, std::size_t ia, const TaskSpec& b, std::size_t ib);

// PriorityScheme assigns the final SCHED_FIFO priorities of one task set. It keeps a reference
// to the TaskSet, which must outlive it (it lives for one planner call).
class PriorityScheme {
 public:
  // PriorityScheme fixes the scheme for `set`; heavy[i] says whether task i is heavy.
  PriorityScheme(const TaskSet& set, std::vector<bool> heavy);

  // global says whether priorities are distinct across the whole set (false = per core).
  [[nodiscard]] bool global() const noexcept { return global_; }

  // heavy_priority is the final priority of heavy task i (alone on its dedicated cores).
  [[nodiscard]] int heavy_priority(std::size_t i) const;

  // on_core gives the final priorities of the light tasks `members` (file indices) when exactly
  // they share one core; result[k] belongs to members[k]. In global mode it does not depend on
  // the other members; per core it does, which is why first-fit asks again for every trial.
  [[nodiscard]] std::vector<int> on_core(const std::vector<std::size_t>& members) const;

  // on_core_ordered is on_core for `members` already in dm_before order, in O(k) instead of
  // O(k log k): first-fit keeps each core's members in that order and asks once per trial.
  [[nodiscard]] std::vector<int> on_core_ordered(const std::vector<std::size_t>& members) const;

 private:
  const TaskSet& set_;
  std::vector<bool> heavy_;
  bool global_ = true;
  std::vector<int> global_priority_;  // per task; valid in global mode
};

// shared_priority_note describes tasks on one core with equal priorities, or returns "" if all
// differ. `core` is the CPU id, members are file indices and priorities their final values.
std::string shared_priority_note(const TaskSet& set, int core,
                                 const std::vector<std::size_t>& members,
                                 const std::vector<int>& priorities);

}  // namespace rtpar::analysis
