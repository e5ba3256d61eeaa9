// rbf.hpp — request-bound functions used to pack decomposed strands onto one core: FBB's original
// RBF (Fisher, Baruah & Baker, ECRTS'06) and RT-OpenMP's offset-aware RBF* (RT-OpenMP §IV-A).
// All quantities are integer nanoseconds; intermediates are 128-bit, and the paper's real-valued
// utilization term u·d is rounded up, so a bound here is never below the paper's real value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rtpar::analysis {

// CoreSegment is what one core holds of one segment of one task: the strands of segment
// `segment` of task `task` placed on the core, aggregated (they are released together).
struct CoreSegment {
  std::size_t task = 0;
  std::size_t segment = 0;
  std::int64_t offset = 0;  // r_{j,p}: release offset within the job
  std::int64_t window = 0;  // d_{j,p}: relative deadline of the segment's strands
  std::int64_t period = 0;  // T_j
  __int128 work = 0;        // e_{j,p}·m_{j,p,q}: the segment's work on this core
};

// rbf_fbb is FBB's RBF of independent sporadic strands of total WCET `work` and period T over an
// interval of length d (Fisher, Baruah & Baker, ECRTS'06; RT-OpenMP §IV-A "RBF(τ_i, t) =
// e_i + u_i·t"):  work + ⌈d · work / T⌉. Valid for any release pattern with separations ≥ T.
__int128 rbf_fbb(__int128 work, std::int64_t period, std::int64_t d);

// offset_burst is the first term of RBF* for the segments `segs` of ONE task j on a core (all
// with the same period T_j):
//   max_l  Σ_{p : (r_{j,p} − r_{j,l}) mod T_j < d}  e_{j,p}·m_{j,p,q}
// (RT-OpenMP §IV-A: the work released within d of a window starting at segment l's release).
// The paper writes "≤ d"; rtpar counts only releases inside the half-open window [t, t + d),
// which is all a job of relative deadline d can meet. 0 when segs is empty.
__int128 offset_burst(std::span<const CoreSegment> segs, std::int64_t d);

// offset_burst_until is offset_burst(segs, d), and sets `until` to a window length u ≥ d such that
// offset_burst(segs, d') is the same value for every d' in [d, u] (same segments, same works):
// the windows l count the same releases until d' passes the nearest release a window does not
// count yet. u = d where that is not worked out (the pairwise path), the largest int64 for d ≥ T.
__int128 offset_burst_until(std::span<const CoreSegment> segs, std::int64_t d, std::int64_t& until);

// rbf_star is RT-OpenMP's offset-aware RBF*_q(τ_j^decom, d) of one task j on core q
// (RT-OpenMP §IV-A):  offset_burst(segs, d) + ⌈d · Σ_p e_{j,p}·m_{j,p,q} / T_j⌉.
// It bounds the work j's strands on q release in ANY half-open interval of length d, for any
// sporadic release of j whose segments are released at their offsets (docs: the proof).
__int128 rbf_star(std::span<const CoreSegment> segs, std::int64_t d);

}  // namespace rtpar::analysis
