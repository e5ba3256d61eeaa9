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
  std::optional<double> expected_response_ns;     // federated-ws: bound on E[R] (rtws.md §V-B)
  std::optional<std::string> reason;              // why it is not schedulable (null when it is)
  CoreScheduling scheduling = CoreScheduling::fixed_priority;
  // thread_cores is the CPU of each thread of the task's team, master first. Empty means one
  // thread per entry of `cores` (federated). Partitioned: `threads` threads spread over places.
  std::vector<int> thread_cores;
  // dedicated_cores says no other task runs on the task's cores: the federated planners set it
  // for the heavy tasks they give cores of their own; light tasks, partitioned places and
  // strand-level plans share cores (false). The executor only applies it: a steal pool's workers
  // spin up to steal.idle_spin between runs on dedicated cores, and sleep at once on shared ones,
  // where a spin would delay the other tasks there by up to idle_spin per job (an interference no
  // planner charges). Not part of the JSON outputs.
  bool dedicated_cores = false;
  // segments is the strand-level placement (decomposition, fork-join-rta); empty otherwise. When
  // present, the executor runs the task with one pinned thread per distinct core of the strands,
  // each running only its strands (docs/internals/dispatcher.md).
  std::vector<SegmentPlan> segments;
};

// Plan is the central artifact: everything the executor needs, decided offline.
struct Plan {
  bool schedulable = false;
  PlannerKind planner = PlannerKind::federated;
  std::vector<int> cores;          // real-time cores available to the planner (ascending)
  std::vector<TaskPlan> tasks;     // same order as TaskSet::tasks
  std::vector<std::string> notes;  // plan-wide remarks (e.g. cores missing in total)
};

// Topology is the machine a plan is made for: CPU ids grouped by socket (rtpar/topology.hpp).
struct Topology;
struct OverheadProfile;

// MeasuredTask is one task's online work/span measurement from a run (report.json of `rtpar run
// --out`, runtime = "steal"): the largest values over its profiled jobs.
struct MeasuredTask {
  std::string name;
  std::int64_t jobs = 0;                  // profiled jobs the maxima are taken over
  std::int64_t work_max_ns = 0;           // largest measured work
  std::int64_t burdened_span_max_ns = 0;  // largest measured burdened span L̂
};

// MeasuredProfile is every measured task of one report, and where it came from.
struct MeasuredProfile {
  std::string source;  // the report's path, quoted in plan notes
  std::vector<MeasuredTask> tasks;
};

// PlanOptions are inputs to planning that are not part of the task set.
struct PlanOptions {
  const OverheadProfile* overhead = nullptr;  // measured fork/join costs (fork-join-rta)
  const Topology* target = nullptr;           // analyse for this machine instead of the file's
  // measured: federated-ws sizes each measured task with C = max(declared C, measured work) and
  // L̂ = max(declared L, measured burdened span) (rtws.md §V-B: eq. 3 takes the burdened span).
  const MeasuredProfile* measured = nullptr;
};

// plan_taskset runs the planner named by set.system.planner. It never touches threads.
Plan plan_taskset(const TaskSet& set, const PlanOptions& options = {});
// plan_with runs a given planner on the set, whatever the file names.
Plan plan_with(PlannerKind planner, const TaskSet& set, const PlanOptions& options = {});

// plan_federated implements Li et al. ECRTS'14 federated scheduling (docs/analysis.md).
Plan plan_federated(const TaskSet& set);

// plan_federated_ws implements federated scheduling with work-stealing overhead (rtws.md §V-B).
Plan plan_federated_ws(const TaskSet& set);
// plan_decomposition implements RT-OpenMP's decomposition + FBB-FFD (rt-openmp.md §IV-A).
Plan plan_decomposition(const TaskSet& set, const PlanOptions& options);
// plan_fork_join_rta implements FJOS's RTA-driven greedy assignment (fjos.md §V–VII).
Plan plan_fork_join_rta(const TaskSet& set, const PlanOptions& options);
// plan_partitioned implements OpenMP-RT partitioned EDF / fixed priority (openmp-rt.md §3.2–3.3).
Plan plan_partitioned(const TaskSet& set, const PlanOptions& options);

}  // namespace rtpar
