// execution_draw.hpp — stochastic execution: a node's length in one job when its work is drawn
// from SimOptions' execution range (docs/internals/simulation.md, "Stochastic execution").
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/sim_model.hpp"

namespace rtpar::sim {

// kExecutionInstance is where the execution-factor draws start in a job's instance numbering:
// far above any overhead draw's index, so the two streams never share a draw.
inline constexpr std::uint64_t kExecutionInstance = std::uint64_t{1} << 62;

// executed_length is node n's length in job `job` of the task with TaskSet index `set_index`:
// folded + ⌊work × f / kExecutionPpm⌋, work = length − folded, f drawn uniformly in [min_ppm,
// max_ppm] as min + ⌊(max − min) × k / kDrawScale⌋ with k = draw_index(seed, set_index, job,
// kExecutionInstance + n) (exact in 128 bits). A node with work keeps at least 1 ns of it, so that
// only join nodes are empty (a job whose nodes all completed at once would finish inside its own
// start). Throws InputError when the length would exceed 2^63 − 1 ns.
std::int64_t executed_length(const SimNode& node, std::uint64_t seed, std::size_t set_index,
                             std::uint64_t job, std::size_t n, std::int64_t min_ppm,
                             std::int64_t max_ppm);

}  // namespace rtpar::sim
