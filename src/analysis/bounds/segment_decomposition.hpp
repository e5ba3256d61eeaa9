// decompose.hpp — the task decomposition of Saifullah et al. (RTSS'11, RTS'13) as RT-OpenMP uses
// it (RT-OpenMP §IV-A): each segment of a parallel-synchronous task becomes m sequential
// strands sharing a release offset and a relative deadline (a "window"), computed for a speed-2
// machine that is 2.5× slower than the real one. Formulas and sources:
// docs/analysis/decomposition.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// DecomposedSegment is one segment after decomposition: its m strands of length e are released
// at `offset` after the job's release and must finish by `offset + window`.
struct DecomposedSegment {
  std::int64_t strands = 1;  // m_{i,j}
  std::int64_t length = 0;   // e_{i,j}
  std::int64_t offset = 0;   // r_{i,j}: the previous segment's deadline
  std::int64_t window = 0;   // d_{i,j}: the segment's relative deadline
  bool heavy = false;        // m_{i,j} > 2.5·C_i / (D_i − 2.5·P_i)
};

// Decomposition is a task's segments with their windows and which rule produced them.
struct Decomposition {
  std::vector<DecomposedSegment> segments;
  // paper_rule is true when 2.5·P_i < D_i and the windows are RT-OpenMP §IV-A's (the rule
  // the capacity-augmentation bound 5 covers). False when P_i ≤ D_i ≤ 2.5·P_i: the paper's slack
  // L_i is ≤ 0 and its rule is undefined; rtpar then uses its limit as L_i → 0+ (every segment
  // light, windows in proportion to e_{i,j}). Either way the windows are only a split of D_i; the
  // load condition of the partitioning (fbb_ffd.hpp) is what certifies the plan.
  bool paper_rule = true;
};

// decompose splits `segments` (task deadline D) into windows (RT-OpenMP §IV-A):
//   slack on the speed-2 machine       L_i = D_i − 2.5·P_i
//   heavy segment                      m_{i,j} > 2.5·C_i / (D_i − 2.5·P_i)
//   with heavy segments:  heavy  d_{i,j} = 2.5·e_{i,j}·(1 + l_{i,j}),
//                                l_{i,j} = m_{i,j}·(D_i − 2.5·P_i^ℓ) / (2.5·(C_i − C_i^ℓ)) − 1
//                         light  d_{i,j} = 2.5·e_{i,j}   (no slack)
//   all segments light:          d_{i,j} = e_{i,j}·D_i / P_i
//   release offset               r_{i,j} = Σ_{k<j} d_{i,k}
// where C_i^ℓ and P_i^ℓ are the work and critical path of the light segments. When L_i ≤ 0 (and
// P_i ≤ D_i) the all-light rule is used (Decomposition::paper_rule = false). The windows sum to
// exactly D_i; they are exact fractions whose boundaries r_{i,j} are rounded down to whole ns, so
// every window ends no later than its exact deadline, the last ends exactly at D_i and no window
// is shorter than its strands (d ≥ e holds exactly, and ⌊x + y⌋ − ⌊x⌋ ≥ ⌊y⌋). The paper states
// the model with implicit deadlines; rtpar uses D_i (≤ T_i) throughout, which only shortens the
// windows. Returns nullopt with `why` when P_i > D_i (infeasible on any number of cores) or the
// segment list is empty.
std::optional<Decomposition> decompose(const std::vector<SegmentSpec>& segments,
                                       std::int64_t deadline, std::string& why);

}  // namespace rtpar::analysis
