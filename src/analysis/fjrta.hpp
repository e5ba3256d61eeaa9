// fjrta.hpp — the stage-by-stage response-time analysis of fork/join tasks under partitioned
// fixed priorities (Axer et al., ECRTS'13, as summarised and charged with overheads in fjos.md §VI).
//
// Pure analysis: it knows placed aggregate strands, periods, deadlines and priorities, nothing of
// TaskSpec or topology. The assignment that produces placements is in fork_join_rta.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace rtpar::analysis {

// FjGroup is an aggregate strand: all strands of one stage that run on one core, executed one
// after the other by the task's thread there (fjos.md §V "no inter-strand interference"), with
// the stage's fork/join overhead already added.
struct FjGroup {
  int core = -1;
  std::int64_t wcet = 0;
};

// FjStage is one stage: its aggregate strands, one per core it uses.
struct FjStage {
  std::vector<FjGroup> groups;
};

// FjTask is one placed fork/join task. `finish` holds the stage-completion bounds B_{i,j}
// (relative to the job's activation) once fj_analyse has accepted it.
struct FjTask {
  std::int64_t period = 0;
  std::int64_t deadline = 0;  // D ≤ T
  int priority = 0;           // larger = more urgent; equal priorities interfere both ways
  std::vector<FjStage> stages;
  std::vector<std::int64_t> finish;
};

// fj_analyse bounds the response time of `task` given the already analysed tasks `others` whose
// priority is ≥ task.priority (their `finish` must be filled). On success it fills task.finish and
// returns R = B_{i,s−1}; it returns nullopt as soon as a stage bound exceeds the deadline.
//
// Per stage j (fjos.md §VI; Axer et al. ECRTS'13 §4): the stage is released at B_{i,j−1} (0 for
// j = 0) and every aggregate strand g on core q finishes within its response
//   w_g = c_g + Σ_{h ∈ hp(q)} ⌈(w_g + J_h)/T_h⌉ · c_h            (least fixed point, from c_g)
// where hp(q) are the aggregate strands of other tasks on q with priority ≥ P_i and J_h = B_{u,v−1}
// is the release jitter of h's stage (its stage starts anywhere in [0, B_{u,v−1}] after its own
// activation). Then B_{i,j} = B_{i,j−1} + max_g w_g: the next stage's strands are released when the
// slowest strand of this stage completes (stage completion as the next stage's release jitter).
// Conditions: preemptive partitioned fixed priorities, constrained deadlines, independent tasks,
// the interfering tasks meet their deadlines (so one job of each is active at a time).
// Not applied: Axer's critical-strand optimisation, which removes interference counted twice on
// the critical core across stages; without it the bound is larger (pessimistic, still safe).
std::optional<std::int64_t> fj_analyse(FjTask& task, const std::vector<const FjTask*>& others);

}  // namespace rtpar::analysis
