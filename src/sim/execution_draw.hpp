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

// JobDraws are a job's random inputs: the run's seed and execution range, the task's TaskSet
// index and the job's release index.
struct JobDraws {
  std::uint64_t seed = 0;
  std::int64_t min_ppm = kExecutionPpm;
  std::int64_t max_ppm = kExecutionPpm;
  std::size_t set_index = 0;
  std::uint64_t job = 0;
};

// job_length is node n's length in that job: its work (executed_length when the range is not
// [1, 1]) plus each of its sampled overhead draws, the draw of instance `instance`, which it
// advances by the node's draws (engine.hpp: instances run over a job's draws in node order).
// Throws InputError when the length would exceed 2^63 − 1 ns.
std::int64_t job_length(const SimNode& node, std::size_t n, const JobDraws& d,
                        std::uint64_t& instance);

}  // namespace rtpar::sim
