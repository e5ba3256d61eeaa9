// team_response.cpp — see team_response.hpp.
#include "analysis/bounds/team_response.hpp"

#include <algorithm>

#include "core/checked_math.hpp"

namespace rtpar::analysis {

std::int64_t static_block_count(std::int64_t strands, std::int64_t threads, std::int64_t rank) {
  return strands / threads + (rank < strands % threads ? 1 : 0);
}

std::optional<TeamShares> segment_shares(const std::vector<SegmentSpec>& segments,
                                         std::int64_t threads, std::int64_t fork_ns,
                                         std::int64_t release_ns) {
  TeamShares out;
  const auto p = static_cast<std::size_t>(threads);
  out.thread_work.assign(p, release_ns);
  std::optional<std::int64_t> critical = release_ns;
  // The release latency is charged as execution at the start of every thread (a pseudo-segment):
  // it is a wake-up path that runs at the task's level, so interference during it is counted too.
  if (release_ns > 0) out.segment_share.emplace_back(p, release_ns);
  for (const SegmentSpec& seg : segments) {
    std::vector<std::int64_t> share(p, 0);
    std::int64_t longest = 0;
    for (std::size_t r = 0; r < p; ++r) {
      const std::int64_t count =
          static_block_count(seg.strands, threads, static_cast<std::int64_t>(r));
      if (count == 0) continue;
      const auto work = checked_mul(count, seg.length.count());
      const auto e = work ? checked_add(*work, seg.strands >= 2 ? fork_ns : 0) : std::nullopt;
      const auto total = e ? checked_add(out.thread_work[r], *e) : std::nullopt;
      if (!total) return std::nullopt;
      share[r] = *e;
      out.thread_work[r] = *total;
      longest = std::max(longest, *e);
    }
    critical = critical ? checked_add(*critical, longest) : std::nullopt;
    if (!critical) return std::nullopt;
    out.segment_share.push_back(std::move(share));
  }
  out.critical = *critical;
  return out;
}

std::int64_t greedy_length(std::int64_t work, std::int64_t span, std::int64_t threads) {
  const std::int64_t parallel = work - span;
  // ⌈(C − L)/m⌉ + L ≤ (C − L) + L = C, so no step overflows.
  return parallel / threads + (parallel % threads != 0 ? 1 : 0) + span;
}

RtaResult segmented_response(const TeamShares& shares, std::int64_t deadline,
                             const CoreInterference& interference) {
  RtaResult out;
  __int128 total = 0;
  for (const std::vector<std::int64_t>& share : shares.segment_share) {
    __int128 slowest = 0;
    for (std::size_t r = 0; r < share.size(); ++r) {
      const std::int64_t e = share[r];
      if (e == 0) continue;
      // x ≤ deadline − total keeps every partial sum ≤ D < 2^63 (no overflow in 128 bits).
      const __int128 room = __int128(deadline) - total;
      __int128 x = e;
      bool settled = false;
      for (std::uint64_t step = 0; step < kRtaIterationCap && x <= room; ++step) {
        const __int128 next = __int128(e) + interference(r, x);
        if (next == x) {
          settled = true;
          break;
        }
        x = next;
      }
      if (x > room) return out;  // missed: this segment alone passes the deadline
      if (!settled) {
        out.status = RtaStatus::capped;
        return out;
      }
      slowest = std::max(slowest, x);
    }
    total += slowest;
    if (total > deadline) return out;
  }
  out.status = RtaStatus::met;
  out.response = Duration(static_cast<std::int64_t>(total));
  return out;
}

}  // namespace rtpar::analysis
