// fjrta.hpp — the stage-by-stage response-time analysis of fork/join tasks under partitioned
// fixed priorities (Axer et al., ECRTS'13, as summarised and charged with overheads in FJOS
// §VI). Formulas, proofs and worked examples: docs/analysis/fork_join_rta.md.
//
// Pure analysis: it knows placed aggregate strands, periods, deadlines and priorities, nothing of
// TaskSpec or topology. The assignment that produces placements is in fork_join_rta.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "analysis/bounds/server_interference.hpp"

namespace rtpar::analysis {

// FjGroup is an aggregate strand: all strands of one stage that run on one core, executed one
// after the other by the task's thread there (FJOS §V "no inter-strand interference"), with
// the stage's fork/join overhead already added.
struct FjGroup {
  int core = -1;
  std::int64_t wcet = 0;
  // spin is how long the task's thread on `core` may spin at the task's priority waiting for the
  // previous stage to complete before it runs this strand (the wait policy's spin at the gate,
  // docs/internals/dispatcher.md; 0 under `block`, in stage 0, or when the previous stage has no
  // strand on another core). It happens before this strand is released and ends by then, so it
  // never delays the task itself; it is demand on the core for every task the task interferes
  // with: counted with wcet when the task is an interferer, never in its own windows.
  std::int64_t spin = 0;
};

// FjStage is one stage: its aggregate strands, at most one per core.
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

// FjOptions selects the form of the analysis.
struct FjOptions {
  // chains enables the critical-strand optimisation (FJOS §VI, "to reduce the pessimism"):
  // consecutive stages whose strands follow each other on one core are analysed as one busy
  // window, so interference already counted for an earlier stage on that core is not charged
  // again (see fj_analyse). Off = the plain stage-by-stage bound, kept for comparison and tests;
  // on is never larger (docs/analysis/fork_join_rta.md, "Dominance").
  bool chains = true;
  // server is the kernel's server per core (server_interference.hpp), charged on every core as an
  // interferer above every task: wcet Q, period P, release jitter P − Q, i.e. ⌈(Δ + P − Q)/P⌉·Q
  // in a window Δ, which is ≥ I(Δ) = min(Δ, Q·⌈(Δ + P − Q)/P⌉) (Audsley et al., SEJ 8(5) 1993,
  // §3; Strosnider et al., IEEE ToC 44(1) 1995, §4). The min adds nothing here: where it is Δ,
  // w = demand + … + Δ has no fixed point w ≥ Δ with demand > 0 either. nullopt: not charged.
  // fj_analyse throws std::invalid_argument unless 0 < Q ≤ P.
  std::optional<PeriodicServer> server;
};

// FjCoreIndex lists, for each core, the analysed tasks with at least one strand there (each task
// once, in the order added). fj_analyse reads only the lists of the analysed task's cores, so an
// analysis costs O(tasks on those cores) instead of O(all tasks): the greedy pass of n tasks is no
// longer Θ(n²) scans of the whole accepted set (fj_analyse_indexed). The tasks must outlive the
// index.
class FjCoreIndex {
 public:
  // add records `task` (its `finish` may still change; the index keeps the pointer) on each core
  // of its groups.
  void add(const FjTask* task);
  // on is the tasks with a strand on `core` (empty if none).
  const std::vector<const FjTask*>& on(int core) const;
  // descending says whether on(core) is in non-increasing priority order (the planner adds tasks
  // from the highest priority down), so a scan for priorities ≥ P may stop at the first below P.
  bool descending(int core) const;

 private:
  std::map<int, std::vector<const FjTask*>> by_core_;
  std::set<int> unsorted_;  // cores whose list is not in non-increasing priority order
  std::vector<const FjTask*> none_;
};

// fj_analyse bounds the response time of `task` given the already analysed tasks `others` whose
// priority is ≥ task.priority (their `finish` must be filled; others of lower priority and `task`
// itself are skipped). On success it fills task.finish and returns R = B_{i,s−1}; it returns
// nullopt as soon as some bound exceeds the deadline.
//
// Interference on core q (Tindell-style jitter, Axer et al. §4; FJOS §VI): an aggregate strand
// h of task u (priority ≥ P_i) on q released J_h = B_{u,v−1} (0 for v = 0) at the latest after
// u's activation executes at most ⌈(Δ + J_h)/T_u⌉ times in any window of length Δ, so
//   I_q(Δ) = Σ_{h on q} ⌈(Δ + J_h)/T_u⌉ · c_h,   c_h = wcet_h + min(spin_h, J_h).
// The gate spin (FjGroup::spin, charged as min(spin_h, J_h)) starts no earlier than u's
// activation and ends when stage v − 1 completes, by a + J_h: u's demand on q per job, c_h, is
// still released within [a, a + J_h], which is all the ceiling needs (docs/analysis/
// fork_join_rta.md, "Waiting members").
// With chains, strands of u on q in stages v..v' where stages v..v'−1 have no other core form one
// block (each is released the instant the previous one completes) with c = their sum, J = J_v.
//
// Busy window of a run of stages j0..j whose strands on core q follow each other:
//   W_q(j0..j) = least fixed point of  w = Σ_{k=j0..j} c_{q,k} + I_q(w).
// Stage bound (chains off, FJOS §VI literally): B_j = B_{j−1} + max_q W_q(j..j), B_{−1} = 0.
// Stage bound (chains on): F_j(q) bounds the completion of task i's strand of stage j on q,
//   F_j(q) = max over valid run starts j0 ≤ j (q has a strand in every stage j0..j) of
//            P(j0, q) + W_q(j0..j),
//   P(0, q) = 0,  P(j0, q) = max_{q' ≠ q in stage j0−1} F_{j0−1}(q')  (no such q' ⇒ j0 invalid),
//   B_j = max_q F_j(q).
// A core where some interferer has priority P_i is analysed in the plain form (SCHED_FIFO queues
// each new strand of i behind equal-priority work, so a chain is not one preemptive window).
// Conditions: preemptive partitioned fixed priorities, constrained deadlines D ≤ T, independent
// tasks, interferers that meet their deadlines (one job of each active at a time), strands of
// one stage on one core run back to back in one thread. With options.server each core's I_q also
// holds the server's term (FjOptions::server), above every task. The cap: any candidate bound > D
// stops the analysis (the iterations are monotone, so it can only grow).
std::optional<std::int64_t> fj_analyse(FjTask& task, const std::vector<const FjTask*>& others,
                                       const FjOptions& options = {});

// fj_analyse_indexed is fj_analyse with the other tasks given by core: `index` holds the
// analysed tasks (task itself may be in it; it is skipped). Same result as the list form with the
// tasks of the index: the interferers of a core are exactly the tasks with a strand on it, and the
// order in which their terms are summed changes no bound (all terms are ≥ 0).
std::optional<std::int64_t> fj_analyse_indexed(FjTask& task, const FjCoreIndex& index,
                                               const FjOptions& options = {});

}  // namespace rtpar::analysis
