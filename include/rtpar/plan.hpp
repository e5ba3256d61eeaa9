// rtpar/plan.hpp — the Plan: admission control's verdict and the executor's only input on policy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar {

// CoreScheduling is how the threads sharing a core are ordered.
enum class CoreScheduling {
  fixed_priority,  // SCHED_FIFO at TaskPlan/StrandPlan priorities
  edf,             // earliest absolute deadline first (partitioned planner without priorities)
};

// StrandPlan is where one strand of one segment runs and at which priority.
struct StrandPlan {
  int core = -1;     // CPU id
  int priority = 0;  // SCHED_FIFO priority of the strand's thread while it runs this strand
};

// SegmentPlan is one segment (stage) of a parallel-synchronous task as placed by a strand-level
// planner (decomposition, fork-join-rta). Offsets and deadlines are relative to the job release.
struct SegmentPlan {
  std::int64_t length_ns = 0;       // length of each strand of this segment
  std::int64_t offset_ns = 0;       // decomposition: release offset of the segment; else 0
  std::int64_t deadline_ns = 0;     // decomposition: absolute-in-job deadline; fjrta: stage bound
  std::vector<StrandPlan> strands;  // one per strand, strand order
};

// TaskPlan is one task's placement: its cores, its SCHED_FIFO priority and what the analysis says.
struct TaskPlan {
  std::string name;
  bool heavy = false;        // C > D: needs parallelism and gets dedicated cores
  std::vector<int> cores;    // assigned CPU ids (heavy: dedicated; light: exactly one)
  int priority = 0;          // SCHED_FIFO priority (heavy above light, DM, distinct per core)
  double utilization = 0.0;  // C/T
  int cores_needed = 0;      // cores the analysis asks for (heavy: n; light: 1)
  std::optional<std::int64_t> response_bound_ns;  // worst-case response bound when one exists
  std::optional<double> expected_response_ns;     // federated-ws: bound on E[R] (RTWS §V-B)
  std::optional<std::string> reason;              // why it is not schedulable (null when it is)
  CoreScheduling scheduling = CoreScheduling::fixed_priority;
  // thread_cores is the CPU of each thread of the task's team, master first. Empty means one
  // thread per entry of `cores` (federated). Partitioned: `threads` threads spread over places.
  std::vector<int> thread_cores;
  // member_budget_ns is, per thread of a partitioned team (thread_cores' order), the CPU time per
  // job the plan charges on that thread's core without measured overheads: the budget `rtpar run`
  // gives that member (docs/reliability.md, "Budgets"). Empty when the plan charges no amount per
  // thread (one thread, threads sharing a core, a steal pool, other planners).
  std::vector<std::int64_t> member_budget_ns;
  // dedicated_cores says no other task runs on the task's cores: the federated planners set it
  // for the heavy tasks they give cores of their own; light tasks, partitioned places and
  // strand-level plans share cores (false). The executor only applies it: a steal pool's workers
  // spin up to steal.idle_spin between runs on dedicated cores, and sleep at once on shared ones,
  // where a spin would delay the other tasks there by up to idle_spin per job (an interference no
  // planner charges). Not part of the JSON outputs.
  bool dedicated_cores = false;
  // wait is the wait policy the plan charged the task's members and the run gives them, when the
  // planner changed it from the task's own `wait` (fork-join-rta with [system] shared_wait: the
  // task shares a core with a task placed before it); nullopt: the task's own. Read it through
  // planned_wait (rtpar/plan.hpp).
  std::optional<WaitKind> wait;
  // segments is the strand-level placement (decomposition, fork-join-rta); empty otherwise. When
  // present, the executor runs the task with one pinned thread per distinct core of the strands,
  // each running only its strands (docs/internals/dispatcher.md).
  std::vector<SegmentPlan> segments;
};

// KernelInterference is the kernel's highest-priority interference on each real-time core, seen
// as a periodic server (budget Q per period P: the fair server or RT throttling, docs/analysis.md
// "Kernel interference"), and what a plan does with it. Budget and period are 0 when none.
struct KernelInterference {
  // state: "charged", "stated" (read, not charged), "isolated" (the run removes it), "none", or
  // "unread" (nobody gave it to the planner)
  std::string state = "unread";
  bool known = false;          // false: (part of) it could not be read (see source)
  std::int64_t budget_ns = 0;  // Q per core
  std::int64_t period_ns = 0;  // P
  std::string source;          // what was read (or assumed) and where, for people
};

// SupplyCharge is the measured supply loss a plan charged on every core (an overhead profile's
// `supply` entries, docs/analysis.md "Supply loss"): up to loss_ns lost in any window of
// window_ns, the window chosen for the set.
struct SupplyCharge {
  std::int64_t loss_ns = 0;    // L(w)
  std::int64_t window_ns = 0;  // w
  std::string source;          // the profile's file
};

// ChainPlan is what admission control says about one [[chain]] (docs/analysis.md, "Cause-effect
// chains"): its worst-case data age and reaction time from the tasks' periods and response
// bounds, or why there is none.
struct ChainPlan {
  std::string name;
  std::optional<std::int64_t> data_age_ns;  // bound on sample-to-actuation age
  std::optional<std::int64_t> reaction_ns;  // bound on input-to-first-output time
  std::optional<std::int64_t> max_age_ns;   // the file's max_age, when given
  std::optional<std::string> reason;        // why no bound, or why max_age is not met
};

// Plan is the central artifact: everything the executor needs, decided offline.
struct Plan {
  bool schedulable = false;
  PlannerKind planner = PlannerKind::federated;
  std::vector<int> cores;              // real-time cores available to the planner (ascending)
  std::vector<TaskPlan> tasks;         // same order as TaskSet::tasks
  std::vector<std::string> notes;      // plan-wide remarks (e.g. cores missing in total)
  KernelInterference interference;     // PlanOptions::interference as this planner treated it
  std::optional<SupplyCharge> supply;  // the supply loss charged, if the profile states one
  std::vector<ChainPlan> chains;       // same order as TaskSet::chains
  // force_placed: the planner refused the set and, asked to (PlanOptions::force_place), placed
  // strands its test refused anyway. schedulable stays false: a placement with no admission
  // claim, which only an execution (simulate, run) can judge.
  bool force_placed = false;
};

// planned_wait is the wait policy task `task` runs with under its plan `placement`: the task's
// own, with the kind the planner charged instead when it changed it (TaskPlan::wait).
inline WaitPolicy planned_wait(const TaskSpec& task, const TaskPlan& placement) {
  WaitPolicy wait = task.wait;
  if (placement.wait) wait.kind = *placement.wait;
  return wait;
}

// as_planned is `task` as its plan runs it: a copy with planned_wait when the planner changed the
// task's wait policy (TaskPlan::wait), else nullopt (run the task itself). The executor and the
// simulator both run a task through it.
inline std::optional<TaskSpec> as_planned(const TaskSpec& task, const TaskPlan& placement) {
  if (!placement.wait || *placement.wait == task.wait.kind) return std::nullopt;
  TaskSpec copy = task;
  copy.wait = planned_wait(task, placement);
  return copy;
}

}  // namespace rtpar

// Compatibility: the planner entry points were declared here before the header tiers; they live in
// rtpar/tools/planners.hpp now, which only adds declarations over this header.
#include "rtpar/tools/planners.hpp"  // IWYU pragma: export
