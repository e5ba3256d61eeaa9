// rtpar/tools/planners.hpp — admission control: the planners that turn a TaskSet into a Plan.
//
// Tools tier: what `rtpar check` and `rtpar simulate` use. Includes only the task model and the
// Plan, so a program that plans (and never runs) a task set pulls in no runtime header.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar {

// Topology is the machine a plan is made for: CPU ids grouped by socket (rtpar/tools/topology.hpp).
struct Topology;
struct OverheadProfile;

// MeasuredTask is one task's measurement: the online work/span of a run (report.json of `rtpar
// run --out`, runtime = "steal"), and/or what `rtpar profile --out` measured (CPU-time work on one
// core for any task; the response on its team, an upper bound of L, for team tasks). The largest
// values over the jobs measured; a count of 0 means "not measured" for that part.
struct MeasuredTask {
  std::string name;
  std::int64_t jobs = 0;                  // profiled jobs the steal maxima are taken over
  std::int64_t work_max_ns = 0;           // largest measured online work (steal)
  std::int64_t burdened_span_max_ns = 0;  // largest measured burdened span L̂ (steal)
  std::int64_t cpu_jobs = 0;              // jobs timed alone on one core (rtpar profile)
  std::int64_t cpu_work_max_ns = 0;       // largest CPU time of one job on one core
  std::int64_t span_jobs = 0;             // jobs run on the task's planned team (rtpar profile)
  std::int64_t span_bound_max_ns = 0;     // largest response on that team: an upper bound of L
};

// MeasuredProfile is every measured task of one report, and where it came from.
struct MeasuredProfile {
  std::string source;  // the report's path, quoted in plan notes
  std::vector<MeasuredTask> tasks;
};

// PlanOptions are inputs to planning that are not part of the task set.
struct PlanOptions {
  const OverheadProfile* overhead = nullptr;  // measured costs (fork-join-rta, partitioned)
  const Topology* target = nullptr;           // analyse for this machine instead of the file's
  // measured: every planner plans each measured task with C = max(declared C, measured work,
  // measured CPU work) and L = max(declared L, measured burdened span or span bound)
  // (analysis/planners/measured_inputs.hpp; RTWS §V-B: federated-ws takes the burdened span).
  const MeasuredProfile* measured = nullptr;
  // interference: with state "charged" and Q > 0, the planners charge it on every real-time core
  // as a highest-priority server (docs/analysis.md "Kernel interference"; every planner does).
  // Other states are only stated in the plan.
  KernelInterference interference;
  // assign: how fork-join-rta places strands. greedy (default) is FJOS §VII's fewest-cores
  // search; worst_fit is §VIII-A's "Naive" (decision F11): tasks by priority, stage by stage,
  // each strand on the least-utilized core (ties: lower CPU id), then one RTA. Other planners
  // ignore it.
  AssignKind assign = AssignKind::greedy;
  // force_place: decomposition places every strand its FBB-FFD test refuses anyway (first-fit:
  // the first core, worst-fit: the least-loaded; fbb_ffd.hpp), so a refused set can still be
  // executed, as RT-OpenMP §VI ran every generated set. The plan stays refused (schedulable false,
  // each such task's reason says so, no response bound) and says Plan::force_placed. Other planners
  // ignore it (a note).
  bool force_place = false;
};

// PlanProgress receives how far a long planning got: `done` of `total` items (tasks, strands) of
// `stage` ("placing light tasks", "placing strands"). Called from the planning thread.
using PlanProgress = std::function<void(const char* stage, std::int64_t done,
                                        std::int64_t total)>;  // = detail::ProgressFn

// PlanProgressScope makes `progress` the calling thread's PlanProgress until it is destroyed (the
// previous one is restored then): the planners' long loops (light first-fit, FBB-FFD) call it
// every 256 items and at their end. Scopes nest; other threads are not affected.
class PlanProgressScope {
 public:
  explicit PlanProgressScope(PlanProgress progress);
  ~PlanProgressScope();
  PlanProgressScope(const PlanProgressScope&) = delete;
  PlanProgressScope& operator=(const PlanProgressScope&) = delete;

 private:
  PlanProgress progress_;
  const PlanProgress* previous_;
};

// plan_taskset runs the planner named by set.system.planner. It never touches threads.
Plan plan_taskset(const TaskSet& set, const PlanOptions& options = {});
// plan_with runs a given planner on the set, whatever the file names.
Plan plan_with(PlannerKind planner, const TaskSet& set, const PlanOptions& options = {});

// plan_federated implements Li et al. ECRTS'14 federated scheduling (docs/analysis.md).
Plan plan_federated(const TaskSet& set);

// plan_federated_ws implements federated scheduling with work-stealing overhead (RTWS §V-B).
Plan plan_federated_ws(const TaskSet& set);
// plan_decomposition implements RT-OpenMP's decomposition + FBB-FFD (RT-OpenMP §IV-A).
Plan plan_decomposition(const TaskSet& set, const PlanOptions& options);
// plan_fork_join_rta implements FJOS's RTA-driven greedy assignment (FJOS §V–VII).
Plan plan_fork_join_rta(const TaskSet& set, const PlanOptions& options);
// plan_partitioned implements OpenMP-RT partitioned EDF / fixed priority (OpenMP-RT §3.2–3.3).
Plan plan_partitioned(const TaskSet& set, const PlanOptions& options);

// kSensitivityScale is the denominator of analyse_sensitivity's scaling factors: a factor is an
// integer count of millionths (1'000'000 is ×1), so every set it plans has exact integer lengths.
inline constexpr std::int64_t kSensitivityScale = 1'000'000;

// ScalingMargin is the outcome of one scaling search of analyse_sensitivity (one task's C, or
// every task's C together), as factors in millionths (kSensitivityScale). For a planner monotone
// in C the critical factor lies in [admitted, refused), and refused ≤ admitted·1.001 + 1.
struct ScalingMargin {
  // admitted is the largest factor found at which the planner admits the set; nullopt when no
  // probed factor down to 1 (×0.000001) is admitted.
  std::optional<std::int64_t> admitted;
  // refused is the smallest probed factor above `admitted` that the planner refuses; nullopt when
  // the set is still admitted at `limit`.
  std::optional<std::int64_t> refused;
  // limit is the largest factor searched: the first at which a scaled task's span L exceeds its
  // deadline (no schedule can meet it), at most ×1,000,000.
  std::int64_t limit = 0;
  // refused_below is, for a planner that is not monotone in C, the smallest factor of the check
  // grid below `admitted` that the planner refuses (a smaller C refused); nullopt when every grid
  // factor is admitted, or for a monotone planner (no grid is run).
  std::optional<std::int64_t> refused_below;
  int probes = 0;  // factors this search tried (planner runs; ×1 reuses the plan at ×1)
};

// TaskSensitivity is one task's margins: its C scaled alone, and its response's slack at ×1.
struct TaskSensitivity {
  std::string name;
  ScalingMargin work;  // this task's C (and L) scaled, the others unchanged
  // work_at_factor_ns is the task's scaled C at work.admitted (the C the planner admitted).
  std::optional<std::int64_t> work_at_factor_ns;
  std::optional<std::int64_t> slack_ns;  // D − R at ×1, when the plan gives a worst-case bound R
  std::optional<double> response_ratio;  // R/D at ×1, likewise
};

// Sensitivity is analyse_sensitivity's answer for one planner (docs/analysis.md "Sensitivity").
struct Sensitivity {
  PlannerKind planner = PlannerKind::federated;
  bool admitted = false;  // the planner's verdict at ×1 (with the options given)
  // monotone: a larger C never turns a refusal into an admission for this planner, so each
  // margin is exact to 0.1 %; else each is a bisection result and the grid check ran.
  bool monotone = false;
  std::string monotonicity;  // why the planner is (not) monotone in C, one sentence
  int grid_points = 0;       // factors below each margin the grid check probed (0: monotone)
  std::vector<TaskSensitivity> tasks;  // set order
  ScalingMargin all;                   // every task's C scaled together
};

// analyse_sensitivity finds, for `planner` on `set` with `options` (as plan_with), the critical
// scaling factor of each task's C alone and of every task's C together: the largest factor s at
// which the planner still admits the set. Scaling a task by s multiplies its C and L (and every
// segment or node length) by s, rounded up to the nanosecond: its code runs uniformly slower.
// Above ×1 the factor is searched by doubling, below by halving, then by bisection to 0.1 %
// (docs/analysis.md "Sensitivity"). Overheads, interference and blocking are not scaled; with
// options.measured the measured C and L are applied first and scaled with the rest. Throws
// InputError as plan_with.
Sensitivity analyse_sensitivity(PlannerKind planner, const TaskSet& set,
                                const PlanOptions& options = {});

// augmentation_bound_holds is the resource-augmentation bound test of a parallel scheduler with
// bound b (decision F10; FJOS §VIII-A Fig. 6 "PST" b = 5, Saifullah et al. RTSS'11, and
// "PSCPS" b = 3.73, Kim et al. ICCPS'13): true iff U = Σ C_i/T_i ≤ cores/b and L_i ≤ D_i/b for
// every task (equality holds). Decided exactly: b is taken to 6 decimals as the fraction
// round(b·10^6)/10^6 (3.73 is 373/100), and a comparison that 128 bits cannot decide exactly is
// "does not hold" (docs/analysis.md). Throws std::invalid_argument for a b that is not finite, not
// in (0, 10^6], or 0 at 6 decimals, or cores < 0; InputError for task parameters the planners
// refuse (as plan_taskset). An empty set holds.
bool augmentation_bound_holds(const TaskSet& set, int cores, double b);

}  // namespace rtpar
