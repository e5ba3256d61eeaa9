// decompose.hpp — the task decomposition of Saifullah et al. (RTSS'11, RTS'13) as RT-OpenMP uses
// it (rt-openmp.md §IV-A): each segment of a parallel-synchronous task becomes m sequential
// strands sharing a release offset and a relative deadline, computed for a speed-2 machine that is
// 2.5× slower than the real one.
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
  std::int64_t window = 0;   // d_{i,j}: the segments' relative deadline
  bool heavy = false;        // m_{i,j} > 2.5·C_i / (D_i − 2.5·P_i)
};

// decompose splits `segments` (task deadline D) into windows (rt-openmp.md §IV-A):
//   slack on the speed-2 machine       L_i = D_i − 2.5·P_i            (must be > 0)
//   heavy segment                      m_{i,j} > 2.5·C_i / (D_i − 2.5·P_i)
//   with heavy segments:  heavy  d_{i,j} = 2.5·e_{i,j}·(1 + l_{i,j}),
//                                l_{i,j} = m_{i,j}·(D_i − 2.5·P_i^ℓ) / (2.5·(C_i − C_i^ℓ)) − 1
//                         light  d_{i,j} = 2.5·e_{i,j}   (no slack)
//   all segments light:          d_{i,j} = e_{i,j}·D_i / P_i
//   release offset               r_{i,j} = Σ_{k<j} d_{i,k}
// where C_i^ℓ and P_i^ℓ are the work and critical path of the light segments. The windows sum to
// exactly D_i. They are computed as exact fractions and the boundaries r_{i,j} rounded down to
// whole ns, so every window ends no later than its exact deadline and the last ends exactly at
// D_i. The paper states the model with implicit deadlines; rtpar uses D_i (≤ T_i) throughout,
// which only shortens the windows. Returns nullopt with `why` when 2.5·P_i ≥ D_i (no slack).
std::optional<std::vector<DecomposedSegment>> decompose(const std::vector<SegmentSpec>& segments,
                                                        std::int64_t deadline, std::string& why);

}  // namespace rtpar::analysis
