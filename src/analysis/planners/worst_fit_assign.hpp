// worst_fit_assign.hpp — the "Naive" strand assignment of FJOS §VIII-A (Fig. 6, series 3),
// specified by decision F11 of docs/internals/experiment-spec.md: tasks in priority order, stage by
// stage, each strand on the core with the least utilization so far (ties: the lower CPU id). No
// core-count search and no socket awareness; fork_join_rta.cpp then runs one RTA per task.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/bounds/fork_join_stage_rta.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// WorstFitCores is the utilization of each core so far, as Σ ⌈c·10^9/T⌉ over the strands placed
// there (rounded up, the greedy's ranking scale; only ranks cores, never decides a verdict).
class WorstFitCores {
 public:
  // WorstFitCores starts every CPU of `cpus` empty.
  explicit WorstFitCores(const std::vector<int>& cpus);
  // place puts one strand of length c (ns) of a task of period T on the least-utilized core
  // (ties: lower CPU id), adds ⌈c·10^9/T⌉ to it and returns its CPU id. Needs a CPU.
  int place(std::int64_t c, std::int64_t period);

 private:
  struct Slot {
    __int128 load;
    int cpu;
  };
  std::vector<Slot> heap_;  // min-heap by (load, cpu)
};

// StrandCores is a task's strand placement: the CPU of strand k of stage j at [j][k].
using StrandCores = std::vector<std::vector<int>>;

// worst_fit_strands places every strand of `stages` (in order) with `cores`, for a task of
// period T.
StrandCores worst_fit_strands(const std::vector<SegmentSpec>& stages, std::int64_t period,
                              WorstFitCores& cores);

// distinct_cores is the ascending CPUs a placement uses.
std::vector<int> distinct_cores(const StrandCores& placement);

// aggregate_strands is the FjTask stages of a placement: per stage one aggregate strand per core
// (cores in order of their first strand), of WCET count·length, plus `overhead` on each when the
// stage uses more than one core (FJOS §VI, as fork_join_rta.cpp's place()); nullopt when a WCET
// does not fit in int64 (no bound).
std::optional<FjTask> aggregate_strands(const std::vector<SegmentSpec>& stages,
                                        const StrandCores& placement, std::int64_t overhead);

}  // namespace rtpar::analysis
