// overhead_charge.hpp — the measured runtime overheads of an overhead profile (`--overhead FILE`,
// rtpar/tools/overhead.hpp) as the planners charge them: release latency, fork/join per region
// and barrier per segment. Formulas, sources and conditions: docs/analysis.md, "Overhead
// profiles".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar::analysis {

// OverheadKind names the array of the profile a charge comes from (and the field an error names).
enum class OverheadKind { fork_join, release, barrier };

// overhead_up_to is the charge of `kind` for a team of at most `threads` members with `wait`:
// the largest OverheadProfile bound over team sizes 1..threads (fork_join and barrier: 2..threads,
// and 0 for threads ≤ 1, which neither forks nor waits for anyone). Taking the maximum keeps a
// charge sound when the team turns out smaller than planned: the profile's rule (the nearest
// larger measured size) is not monotone in the team size. `extrapolated` is set when a size
// above every measured one contributed. Throws InputError naming the profile and the array
// ("release", "barrier" or "fork_join") when the profile cannot bound it (no entry for `wait`,
// e.g. a profile written before barriers were measured), for `task` (quoted in the message).
ForkJoinCharge overhead_up_to(const OverheadProfile& profile, OverheadKind kind, int threads,
                              WaitKind wait, const std::string& task);

// parallel_regions is how many fork/join regions one job of `task` runs on its team: its stages
// (stages_of) with more than one strand; 1 for a parallel task without declared structure (its
// kernel forks at least once; rtpar's kernels without structure fork once per job); 0 for a
// sequential task.
std::int64_t parallel_regions(const TaskSpec& task);

// budget_charge is what the CPU-time budget of `rtpar run` (docs/reliability.md, "Budgets") lets
// one job of a budgeted thread of `task` run at its own priority beyond the work the plan charged,
// with `profile`: for `monitor`, the mechanism's own per-job cost (budget.job p99.9); for
// `enforce`, that + the demotion and restore (budget.demotion p99.9) + system.budget_margin (the
// job is demoted only once its budget plus the margin is spent). The mode is the task's, else
// [system] budget, else enforce — the default rule's mode where a thread shares a core; charging
// it on a dedicated core too is pessimistic, never optimistic. `team` threads: a fork/join team
// of more than one thread (federated heavy) runs in monitor, and its job's path holds two timer
// arms (the master's and one worker's): 2 · budget.job; a steal pool runs in monitor with the
// master's arm and a worker's clock reads per pool run on the path: (1 + regions) · budget.job
// (parallel_regions); an `omp:` kernel's own team runs without a budget, so 0; the partitioned planner passes 1 for a `team`-runtime team,
// each of whose members runs its own budget. A profile
// without `budget.job` (written before `rtpar calibrate` measured it) charges no budget, as one
// without `release` charges no release latency; the charge notes then show none. Saturates.
std::int64_t budget_charge(const OverheadProfile& profile, const SystemSpec& system,
                           const TaskSpec& task, int team);

// JobCharge is what one job of a federated task is charged (docs/analysis.md, "Overhead
// profiles"): release + regions · fork, as a sequential prefix of the job's DAG.
struct JobCharge {
  int team = 1;                          // team size the costs are taken for (at most)
  std::int64_t release_ns = 0;           // release latency, once per job
  std::int64_t fork_ns = 0;              // fork/join cost per region (0 for a team of 1)
  std::int64_t regions = 0;              // regions per job (parallel_regions; 0 for a team of 1)
  std::int64_t budget_ns = 0;            // budget_charge (0 without a system)
  bool extrapolated = false;             // a cost came from above the largest measured team
  std::optional<std::int64_t> total_ns;  // release + regions · fork + budget; nullopt: overflow
};

// job_charge computes a federated task's JobCharge on a team of at most `team` members; with
// `system` (the planners) also its budget_charge, without (the simulator, which injects the
// release latency and never a budget) none.
JobCharge job_charge(const OverheadProfile& profile, const TaskSpec& task, int team,
                     const SystemSpec* system = nullptr);

// charged_task is `task` with C + total and L + total (its structure dropped: C and L no longer
// equal the structure's sums, and the federated planners size from C and L alone). An overflowed
// charge, or a sum beyond 2^63 − 1 ns, saturates both to 2^63 − 1 ns: L ≥ D then, so no planner
// admits it (never an admission on an overflowed number).
TaskSpec charged_task(const TaskSpec& task, const JobCharge& charge);

// job_charge_note states a JobCharge in the plan's notes, with the profile's file.
std::string job_charge_note(const TaskSpec& task, const JobCharge& charge,
                            const OverheadProfile& profile);

// SegmentCharge is what every segment of a decomposed task is charged (RT-OpenMP §VI-B):
// release (scheduling) latency at each segment's release and a barrier at each segment boundary.
struct SegmentCharge {
  int team = 1;                 // team size the barrier is taken for (at most)
  std::int64_t release_ns = 0;  // per segment: Λ(1), each member wakes on its own timer
  std::int64_t barrier_ns = 0;  // per segment after the first (0 for a team of 1)
  std::int64_t budget_ns = 0;   // per strand: each member's budget_charge (pessimistic: per strand)
  bool extrapolated = false;
};

// segment_charge computes a decomposed task's SegmentCharge on a team of at most `team` members
// (with `system`, the budget of each member thread as budget_charge of one thread).
SegmentCharge segment_charge(const OverheadProfile& profile, const TaskSpec& task, int team,
                             const SystemSpec* system = nullptr);

// charged_segments is `segments` with every strand length e_j raised to
// e_j + release + budget + (j > 0 ? barrier : 0); nullopt when a length overflows 2^63 − 1 ns.
std::optional<std::vector<SegmentSpec>> charged_segments(const std::vector<SegmentSpec>& segments,
                                                         const SegmentCharge& charge);

// segment_charge_note states a SegmentCharge in the plan's notes, with the profile's file.
std::string segment_charge_note(const TaskSpec& task, std::size_t segments,
                                const SegmentCharge& charge, const OverheadProfile& profile);

// profile_name is the profile's file for notes and errors ("the overhead profile" when built in
// code).
std::string profile_name(const OverheadProfile& profile);

}  // namespace rtpar::analysis
