// rtpar/task_kinds.hpp — the enumerations of the task-set format (planner, fit, overrun policy,
// runtime) and of planning (strand assignment), and their spellings. One name table per enum lives
// in src/core/names.hpp.
#pragma once

namespace rtpar {

// PlannerKind selects the admission-control algorithm.
enum class PlannerKind {
  federated,      // Li et al. ECRTS'14: n = ceil((C-L)/(D-L)) dedicated cores per heavy task
  federated_ws,   // RTWS eq. (3): n = ceil((C+D-δL)/(D-δL)), for work-stealing heavy tasks
  decomposition,  // RT-OpenMP §IV-A: segments → strands with offsets/deadlines, then FBB-FFD
  fork_join_rta,  // FJOS §V–VII: Axer et al. fork/join RTA, greedy minimal-core assignment
  partitioned,    // OpenMP-RT §3.2–3.3: user places/threads, per-core FP RTA or EDF demand
};

// FitKind is the bin-packing heuristic of the decomposition planner (system.fit).
enum class FitKind {
  fbb_ffd,    // Fisher–Baruah–Baker first-fit decreasing with the offset-aware RBF* (default)
  first_fit,  // first core whose density/RBF test passes, strands in deadline order
  worst_fit,  // the least-loaded core that passes
};

// AssignKind is how fork-join-rta places strands on cores (PlanOptions::assign, --assign).
enum class AssignKind {
  greedy,     // FJOS §VII: fewest cores per task, socket-aware, one RTA per candidate N (default)
  worst_fit,  // FJOS §VIII-A "Naive" (decision F11): each strand on the least-utilized core,
              // then one RTA; no core-count search
};

// OverrunPolicy says what happens to releases that pass while the previous job is still running.
enum class OverrunPolicy {
  queue,  // late jobs run back to back, each keeping its own release time (default)
  skip,   // releases that passed while the previous job ran are dropped and counted
};

// RuntimeKind names the parallel runtime that runs a task's jobs.
enum class RuntimeKind {
  team,   // fork/join team over the task's cores
  steal,  // work-stealing runtime over the task's cores (rtpar/steal.hpp)
};

// BudgetMode is what the runtime does when a job of a real-time thread has used the CPU time the
// plan charged for it on that thread's core (docs/reliability.md, "Budgets").
enum class BudgetMode {
  none,     // nothing measured
  monitor,  // the job's CPU time is measured and an overrun recorded; nothing else changes
  enforce,  // as monitor, and the thread is demoted below every real-time task until the job ends
};

// to_string names planners, overrun policies and runtimes as the file spells them.
const char* to_string(PlannerKind kind) noexcept;
const char* to_string(OverrunPolicy policy) noexcept;
const char* to_string(RuntimeKind kind) noexcept;
const char* to_string(FitKind kind) noexcept;
const char* to_string(AssignKind kind) noexcept;
const char* to_string(BudgetMode mode) noexcept;

}  // namespace rtpar
