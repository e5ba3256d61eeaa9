// fbb_ffd.hpp — partitioning decomposed strands onto cores: Fisher–Baruah–Baker first-fit
// decreasing (FBB-FFD, ECRTS'06) with RT-OpenMP's offset-aware request-bound function RBF*
// (RT-OpenMP §IV-A), and the worst-fit and offset-oblivious first-fit variants (system.fit).
// Formulas, the soundness argument and where rtpar departs from the paper:
// docs/analysis/decomposition.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/bounds/priorities.hpp"
#include "analysis/bounds/rbf.hpp"
#include "analysis/bounds/server_interference.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// FbbStrand is one strand to place: task `task`'s segment `segment`, released `offset` after the
// job's release, WCET `wcet`, relative deadline `window`, period `period` (the task's T).
struct FbbStrand {
  std::size_t task = 0;
  std::size_t segment = 0;
  std::int64_t wcet = 0;
  std::int64_t offset = 0;
  std::int64_t window = 0;
  std::int64_t period = 0;
};

// kPriorityLevels is how many distinct segments one core can hold: one SCHED_FIFO priority each,
// kTopPriority down to kBottomPriority (priorities.hpp). Distinct values keep the analysis exact.
inline constexpr int kPriorityLevels = kTopPriority - kBottomPriority + 1;

// fbb_order is the visit order of fbb_place and the priority order (indices into strands):
// deadline-monotonic by window, ties by task index, then segment index (RT-OpenMP §IV-A:
// "strands are sorted according to their relative deadlines"). Strands of one segment are
// adjacent and keep their given order.
std::vector<std::size_t> fbb_order(const std::vector<FbbStrand>& strands);

// core_interference is Σ RBF over what core `core` holds when strand s is tried on it; every
// entry of `core` was placed before s, so it has s's priority or a higher one. For fit = fbb_ffd
// and worst_fit (offset-aware, RT-OpenMP §IV-A, with rtpar's correction):
//   other task j on the core:  RBF*_q(τ_j, d)                                    (rbf_star)
//   s's own task i, alone with s's segment on the core: W_{i,k};
//   s's own task i, another task on the core: max of
//     (A) W_{i,k} + Σ_{p<k, r_k − r_p < d} W_{i,p} + Σ_{p : r_p > r_k + T_i − d} W_{i,p}
//     (B) offset_burst(own segments, segment k with W_{i,k} + e) − e
// where k is s's segment, d its window, e its WCET, W_{i,p} = e_{i,p}·m_{i,p,q} (strands already
// on the core). The paper counts only W_{i,k} for the own task; the task's other segments are
// added because they can delay other tasks' work into s's window (carry-in; test_fbb_ffd.cpp has
// a counterexample). Without another task on the core they are complete by s's release. For fit =
// first_fit every strand on the core is an independent sporadic task with FBB's original RBF
// (offset-oblivious, own task included): Σ_j rbf_fbb(Σ_p W_{j,p}, T_j, d).
__int128 core_interference(const std::vector<CoreSegment>& core, const FbbStrand& s, FitKind fit);

// FbbResult is where fbb_place put each strand (same order as the input).
struct FbbResult {
  std::vector<int> core;         // core index in [0, cores), or −1 when no core admits it
  std::vector<bool> level_full;  // unplaced only because every passing core had no free level
  // forced: placed by `force` although no core passes the load condition (the test refuses it)
  std::vector<bool> forced;
  std::vector<std::size_t> order;  // fbb_order(strands), the order the strands were visited in
  std::vector<int> priority;       // strand_priorities(strands, core), made while placing
};

// fbb_place visits strands in fbb_order and puts each on a core that passes the load condition
//   d − core_interference(core, s) ≥ e        (RT-OpenMP §IV-A, "load condition")
// for its window d and WCET e, and that holds fewer than `levels` distinct segments (or already
// one of s's segment). Among passing cores, fit = fbb_ffd and first_fit take the first (the
// paper's "first-fit heuristic", FBB-FFD's standard), worst_fit the one with the least
// interference (the paper's "least RBF* value"), ties to the lower index. Placing strands in
// priority order makes the test sufficient: a later strand has a lower priority and never
// disturbs an earlier one.
// With `server` (the kernel's server on every core, server_interference.hpp) the condition is
//   d − core_interference(core, s) − I(d) ≥ e,   I(d) = min(d, Q·⌈(d + P − Q)/P⌉)
// (docs/analysis/decomposition.md's sufficiency argument with the server's execution in the
// window [t0, t0 + d) added to the level-s work: the core runs the server or level-s work
// throughout a level-s busy period, and the server runs at most I(d) in any window of length d —
// Audsley et al., SEJ 8(5) 1993, §3, jitter P − Q; Strosnider et al., IEEE ToC 44(1) 1995).
// I(d) is the same on every core, so worst_fit's ranking does not change.
// Each core's load comes from its FbbCore (fbb_core.hpp): the same value, mostly from memos, and
// cores refused from lower bounds only where the exact load refuses too.
// With `force` (PlanOptions::force_place) a strand no core passes is placed anyway, among the
// cores with a free level (or one of its segment), and marked `forced`: fit = fbb_ffd and
// first_fit take the first such core, worst_fit the one with the least load core_interference
// (ties to the lower index) — each heuristic's choice without the load condition (decision RO5,
// docs/internals/experiment-spec.md: RT-OpenMP §VI ran every generated set, and "the first-fit
// heuristic tends to over-utilize individual processors" says refused strands were still packed;
// the paper does not say where). A strand with no free level anywhere stays unplaced.
// The strands the test admits are placed as without `force`, until the first forced one: from
// there on every core's load counts the forced work too.
FbbResult fbb_place(const std::vector<FbbStrand>& strands, int cores, FitKind fit,
                    int levels = kPriorityLevels,
                    const std::optional<PeriodicServer>& server = std::nullopt, bool force = false);

// strand_priorities gives every placed strand its SCHED_FIFO priority: on each core, the distinct
// segments it holds, ranked in fbb_order, get kTopPriority, kTopPriority − 1, ... (deadline-
// monotonic, distinct per core, strands of one segment on one core equal). Unplaced strands get 0.
std::vector<int> strand_priorities(const std::vector<FbbStrand>& strands,
                                   const std::vector<int>& core);
// strand_priorities with fbb_order(strands) given (FbbResult::order), not computed again.
std::vector<int> strand_priorities(const std::vector<FbbStrand>& strands,
                                   const std::vector<int>& core,
                                   const std::vector<std::size_t>& order);

}  // namespace rtpar::analysis
