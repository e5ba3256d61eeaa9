// team_response.hpp — the work a team job puts on each of its threads, and the response bound of a
// parallel-synchronous job whose threads are pinned one per core and interfered with on each core
// (docs/analysis/partitioned.md, "Team tasks on their own threads").
//
// The `segments` kernel on the `team` runtime runs each segment as parallel_for_static over the
// team (include/rtpar/team.hpp; src/kernels/segments.cpp): rank r of p threads runs ⌊m/p⌋ of the
// segment's m strands, one more when r < m mod p, and no thread starts segment s + 1 before every
// thread has finished segment s (the region's join). The simulator models exactly that split
// (src/sim/sim_model.cpp, add_team_job). With each thread alone on its core among the team's
// threads, a thread's share of a segment is a fixed amount of work that only other tasks' work on
// its core can delay.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "analysis/bounds/rta.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// static_block_count is the number of strands rank `rank` of a team of `threads` runs in a segment
// of `strands` strands under the static-blocks schedule: ⌊m/p⌋, plus one when rank < m mod p.
std::int64_t static_block_count(std::int64_t strands, std::int64_t threads, std::int64_t rank);

// TeamShares is one job of a segment-structured team task, per segment and per thread (rank).
struct TeamShares {
  // segment_share[s][r] is rank r's execution in segment s: its strands' lengths plus the
  // segment's fork/join charge when the segment forks (≥ 2 strands) and r runs a strand; 0 when r
  // has no strand in s. With a release charge, segment 0 is a pseudo-segment of that charge on
  // every thread (the release latency counted as execution, so interference during it counts).
  std::vector<std::vector<std::int64_t>> segment_share;
  // thread_work[r] is rank r's execution over a whole job: the release charge plus Σ_s its shares.
  std::vector<std::int64_t> thread_work;
  // critical is Σ_s max_r segment_share[s][r] (release included): the job's length on idle cores.
  std::int64_t critical = 0;
};

// segment_shares computes TeamShares for `segments` on `threads` ≥ 1 threads, charging `fork_ns`
// per segment of ≥ 2 strands (a strand-1 segment runs on the master without a fork) and
// `release_ns` once per job on every thread. std::nullopt when a sum overflows int64 (the caller
// then admits nothing).
std::optional<TeamShares> segment_shares(const std::vector<SegmentSpec>& segments,
                                         std::int64_t threads, std::int64_t fork_ns,
                                         std::int64_t release_ns);

// greedy_length is ⌈(C − L)/m⌉ + L: Graham's bound on a greedy schedule of a DAG of work C and
// span L on m threads (Graham 1969; RTWS §V-A), in integer ns (rounded up). Needs 0 ≤ L ≤ C,
// m ≥ 1; it never overflows (the result is ≤ C).
std::int64_t greedy_length(std::int64_t work, std::int64_t span, std::int64_t threads);

// CoreInterference is the interference the thread of rank r suffers in a window of length x on
// its core (Σ over the tasks that can preempt it there, plus the kernel server when charged).
using CoreInterference = std::function<__int128(std::size_t rank, __int128 x)>;

// segmented_response bounds a segment-structured team job pinned one thread per core:
//   R = Σ_s max_r x_{s,r},  x_{s,r} = e_{s,r} + I_r(x_{s,r}) (least fixed point from e_{s,r}),
//   e_{s,r} = shares.segment_share[s][r] > 0 (the release pseudo-segment included),
// stopping (missed) as soon as the running sum exceeds `deadline`, capped after kRtaIterationCap
// steps of any one fixed point.
// Sound because thread r is ready from the start of segment s until it finishes its share, and
// every instant it does not run, its core runs interference counted by I_r (FJOS §V: a fork/
// join segment ends with its slowest strand).
RtaResult segmented_response(const TeamShares& shares, std::int64_t deadline,
                             const CoreInterference& interference);

}  // namespace rtpar::analysis
