// build.hpp — shared steps of every generator: the [system] of a core count, tasks from their
// structure, and the one rounding rule from a utilization to an integer period.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gen/params.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::gen {

// count_system is the [system] of a target machine with `cores` CPUs (ids 0..cores−1, written as
// a count) split into `sockets`, analysed by `planner`.
SystemSpec count_system(int cores, int sockets, PlannerKind planner);

// read_planner reads `key` as a planner name of the task-set format (docs/taskset.md).
PlannerKind read_planner(const ParamReader& reader, std::string_view key);

// read_fit reads `key` as a decomposition fit name ("fbb-ffd", "first-fit", "worst-fit").
FitKind read_fit(const ParamReader& reader, std::string_view key);

// segment_task is a parallel-synchronous task (kernel "segments", as a file with
// [[task.segment]] and no kernel loads): work and span follow from the segments.
TaskSpec segment_task(std::string name, std::vector<SegmentSpec> segments);

// spin_task is a task with only C and L (kernel "spin", no structure).
TaskSpec spin_task(std::string name, Duration work, Duration span);

// dag_task is an analysis-only DAG task (no kernel): work and span follow from the nodes.
TaskSpec dag_task(std::string name, DagSpec dag);

// period_for is the period of a task of work C at utilization u > 0: ceil(C/u) ns, raised by one
// ns while double arithmetic says C/T > u, so the task's utilization never exceeds the drawn u.
// nullopt when the period does not fit 63-bit nanoseconds.
std::optional<Duration> period_for(Duration work, double u);

// task_name is "t<index>": names in generated files are short and sort with the index.
std::string task_name(std::size_t index);

// finish validates a generated set (validate_taskset) and names its source; an invalid set (only
// possible at extreme parameters) is an InputError at field "generator".
TaskSet finish(TaskSet set, std::string_view family);

}  // namespace rtpar::gen
