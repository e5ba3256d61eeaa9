// execution_draw.cpp — executed_length and job_length (execution_draw.hpp).
#include "sim/execution_draw.hpp"

#include <algorithm>
#include <limits>

#include "rtpar/error.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/node_queue.hpp"
#include "sim/overhead_draw.hpp"

namespace rtpar::sim {

std::int64_t executed_length(const SimNode& node, std::uint64_t seed, std::size_t set_index,
                             std::uint64_t job, std::size_t n, std::int64_t min_ppm,
                             std::int64_t max_ppm) {
  const std::int64_t work = node.length - node.folded;
  const std::int64_t k = draw_index(seed, set_index, job, kExecutionInstance + n);
  const __int128 factor =
      static_cast<__int128>(min_ppm) + static_cast<__int128>(max_ppm - min_ppm) * k / kDrawScale;
  const __int128 scaled =
      std::max<__int128>(static_cast<__int128>(work) * factor / kExecutionPpm, work > 0 ? 1 : 0);
  const __int128 length = scaled + node.folded;
  if (length > std::numeric_limits<std::int64_t>::max()) {
    throw InputError(SourceLocation{"<simulation>", 0, 0}, "",
                     "a job's length under the execution range exceeds 2^63 - 1 ns");
  }
  return static_cast<std::int64_t>(length);
}

std::int64_t job_length(const SimNode& node, std::size_t n, const JobDraws& d,
                        std::uint64_t& instance) {
  std::int64_t length = node.length;
  if (d.min_ppm != kExecutionPpm || d.max_ppm != kExecutionPpm) {
    length = executed_length(node, d.seed, d.set_index, d.job, n, d.min_ppm, d.max_ppm);
  }
  for (const OverheadQuantiles& q : node.draws) {
    const std::int64_t k = draw_index(d.seed, d.set_index, d.job, instance++);
    length = add_or_throw(length, sample_at(q, k), "a job's length with its overheads");
  }
  return length;
}

}  // namespace rtpar::sim
