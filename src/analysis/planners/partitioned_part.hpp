// partitioned_part.hpp — one task as plan_partitioned sees it: its threads' cores, the shape of
// its job on them (which response bound applies), the work a job puts on each core, and the
// measured overheads charged to it (docs/analysis/partitioned.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bounds/team_response.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"

namespace rtpar::analysis {

// PartShape is how a job of a task runs on its threads, which decides its own term in the bound.
enum class PartShape {
  // whole: one thread, threads sharing cores, runtime = "steal", or segments run by a kernel
  // other than `segments`: the job may put all of C on any of its cores (structure-free).
  whole,
  // segments: [[task.segment]] (the `segments` kernel) on the team runtime, one thread per core:
  // the static-blocks shares of each segment (team_response.hpp).
  segments,
  // greedy: a DAG or C and L only on the team runtime, one thread per core: the job's code
  // schedules its DAG greedily on the team (as the simulator models it), Graham's bound.
  greedy,
};

// Part is one task as the partitioned analysis sees it.
struct Part {
  std::size_t index = 0;
  bool edf = false;
  int priority = 0;
  std::vector<int> cores;         // distinct CPUs of its threads, ascending
  std::vector<int> thread_cores;  // CPU of each thread, master first
  std::int64_t c = 0, d = 0, t = 0;
  std::optional<std::string> reason;
  PartShape shape = PartShape::whole;
  // own is the job's own term in the whole-window bound: C (whole), the static-blocks critical
  // length (segments) or ⌈(C − L)/m⌉ + L (greedy), each with the charged overheads.
  std::int64_t own = 0;
  // core_work[x] is the most a job executes on cores[x] (charges and waiting members' spinning
  // included): what it can take from other tasks there. Interference reads min(core_work, D) (one
  // core runs ≤ D of a job in time).
  std::vector<std::int64_t> core_work;
  TeamShares shares;  // PartShape::segments only
};

// PartCharges are the overheads charged to one task from `--overhead` (0 without a profile).
struct PartCharges {
  std::int64_t release_ns = 0;  // once per job (OverheadProfile::release_bound)
  std::int64_t fork_ns = 0;     // per fork/join region on a team ≥ 2 (fork_join_bound)
  std::int64_t forks = 0;       // regions per job (regions_per_job) on a team ≥ 2, else 0
};

// regions_per_job is how many fork/join regions a job of `task` runs on its team: its segments of
// ≥ 2 strands (a 1-strand segment runs on the master), else 1 when L < C (a parallel kernel is
// assumed to fork once per job; one that forks more must fold the extra into C), else 0 (a
// sequential job: L = C, nothing to fork).
std::int64_t regions_per_job(const TaskSpec& task);

// part_charges looks up the charges of `task` on `threads` threads and appends a plan note saying
// what was charged and from where. Throws InputError (exit 2) when the profile has a `release`
// (or `fork_join`) section that cannot bound this team and policy; a profile without `release`
// entries charges no release latency, and a note says so. The CPU-time budget of a one-thread
// task or of each member of a `team`-runtime team (budget_charge of one thread, with `system`'s
// modes and margin) is charged once per job with the release, so on every member core.
PartCharges part_charges(const TaskSpec& task, const SystemSpec& system, std::size_t threads,
                         const PlanOptions& options, std::vector<std::string>& notes);

// shape_part fills p.shape, p.own, p.core_work and p.shares from the task, its threads and the
// charges, then adds to each core_work what the team's waiting members burn there (wait = spin:
// up to the whole job, so D; hybrid: wait_spin per region; block: nothing). On an int64 overflow
// of a bound term it sets p.reason (never admitted).
void shape_part(Part& p, const TaskSpec& task, const PartCharges& charges);

}  // namespace rtpar::analysis
