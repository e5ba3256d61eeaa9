// partitioned_budget.hpp — the CPU-time budget of each thread of a partitioned team: what the
// partitioned analysis charges a job on that thread's core (docs/reliability.md, "Budgets").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// member_budgets is, per thread of `task`'s team (thread_cores: the CPU of each, master first),
// the CPU time per job the partitioned analysis charges on that thread's core without measured
// overheads — Part::core_work of shape_part with no charges (partitioned_part.hpp): the thread's
// static-blocks share of the segments (the `segments` kernel), else the whole work C (greedy or
// structure-free: any member may run any part of the job), plus what a waiting member burns there
// (hybrid: wait_spin per region; spin: up to D). std::nullopt when the analysis charges no amount
// per thread: two threads share a core (a core's charge covers all of them), runtime = "steal",
// one thread only, or a bound overflows.
std::optional<std::vector<std::int64_t>> member_budgets(const TaskSpec& task,
                                                        const std::vector<int>& thread_cores);

}  // namespace rtpar::analysis
