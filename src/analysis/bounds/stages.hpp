// stages.hpp — the parallel-synchronous view of a task that the strand-level planners
// (decomposition, fork-join-rta) analyse, and the deadline-monotonic priorities they share.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar::analysis {

// synchronous_form converts a DAG into a parallel-synchronous task (Saifullah et al., RTS'13 §4):
// every node starts at its earliest start time on unboundedly many cores; the timeline is cut at
// every node start and finish, and each interval becomes a segment whose strands are the nodes
// running in it, each of the interval's length. Work C and critical path L are preserved; the
// barriers only add precedence, so a schedule of the synchronous form is a schedule of the DAG.
std::vector<SegmentSpec> synchronous_form(const DagSpec& dag);

// structure_hint is what a planner that needs a task's structure adds to its refusal of a parallel
// task without one: the planners that plan from C and L alone, and for an `omp:` kernel why it has
// no structure to give.
std::string structure_hint(const TaskSpec& task);

// stages_of returns the task's segments: its [[task.segment]] structure, the synchronous form of
// its DAG, or a single one-strand segment of length C for a sequential task (C = L). A parallel
// task without structure has no stages; then `why` says so and nullopt is returned.
std::optional<std::vector<SegmentSpec>> stages_of(const TaskSpec& task, std::string& why);

// dm_priorities gives every task a SCHED_FIFO priority in deadline-monotonic order (dm_before):
// 90, 89, ... down to 1, where tasks beyond the 90th share priority 1; an explicit
// TaskSpec::priority replaces the computed value. Equal priorities are analysed as interfering
// with each other (SCHED_FIFO runs a queued equal-priority job first).
std::vector<int> dm_priorities(const TaskSet& set);

}  // namespace rtpar::analysis
