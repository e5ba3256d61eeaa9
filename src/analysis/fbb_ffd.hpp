// fbb_ffd.hpp — partitioning decomposed strands onto cores: Fisher–Baruah–Baker first-fit
// decreasing (FBB-FFD, ECRTS'06) with RT-OpenMP's offset-aware request-bound function RBF*
// (rt-openmp.md §IV-A), plus the first-fit and worst-fit variants the planner offers.
#pragma once

#include <cstdint>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// FbbStrand is one strand to place: task `task`'s segment `segment`, released `offset` after the
// job's release, WCET `wcet`, relative deadline `window`, period `period`.
struct FbbStrand {
  std::size_t task = 0;
  std::size_t segment = 0;
  std::int64_t wcet = 0;
  std::int64_t offset = 0;
  std::int64_t window = 0;
  std::int64_t period = 0;
};

// fbb_place assigns every strand a core index in [0, cores), or −1 when it fits nowhere; the
// result is in the order of `strands`. Strands are visited in deadline-monotonic order (window,
// then task, then segment — the priority order) and each goes to a core that passes the load
// condition  d − Σ_j RBF*_q(τ_j, d) ≥ e  for its window d and WCET e, where the sum runs over the
// tasks with strands already on core q:
//   other tasks j:  RBF*_q(τ_j, d) = max_l [ Σ_{p : δ_p(l) < d} e_p·m_{p,q} ]
//                                    + ⌈ d · Σ_p e_p·m_{p,q} / T_j ⌉
//     with δ_p(l) = (r_p − r_l) mod T_j, l over j's segments on q (rt-openmp.md §IV-A, the first
//     sum taking only segments released within the window when the window starts at segment l);
//   the strand's own task: only the strands of the same segment (released together with it);
//     the task's other segments have disjoint windows and never run at the same time.
// `fit` picks among passing cores: fbb_ffd = the first (the paper's standard), worst_fit = the
// one with the least total RBF*, first_fit = the first under the offset-oblivious RBF of FBB
// (every e_p counted: RBF(τ_j, d) = Σ_p e_p·m_{p,q} + ⌈d·Σ_p e_p·m_{p,q}/T_j⌉).
// The test is sufficient for preemptive fixed priorities when priorities follow the visit order.
std::vector<int> fbb_place(const std::vector<FbbStrand>& strands, int cores, FitKind fit);

// fbb_order is the visit order of fbb_place (indices into strands).
std::vector<std::size_t> fbb_order(const std::vector<FbbStrand>& strands);

}  // namespace rtpar::analysis
