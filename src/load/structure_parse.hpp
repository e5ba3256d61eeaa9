// structure_parse.hpp — the parts of a [[task]] that describe its shape and its runtime budget:
// [[task.segment]], [[task.node]], places and [task.steal] (docs/taskset.md).
#pragma once

#include <string>
#include <vector>

#include <toml++/toml.h>

#include "load/toml_fields.hpp"
#include "model/structure.hpp"  // the structure math the parser checks with
#include "model/taskset_check.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::model {

// cpu_list reads an array of CPU ids in ascending order. Each id's location is recorded under its
// index after sorting ("system.cores[0]" is the smallest), which is the index check_taskset
// reports; the sort is stable so a repeated id is reported at its second occurrence.
std::vector<int> cpu_list(const TableReader& reader, std::string_view key, const toml::node& value,
                          FieldLocations& locations);

// parse_segments reads `[[task.segment]]` (an array of {strands, length} tables).
std::vector<SegmentSpec> parse_segments(const TableReader& task, const toml::node& value,
                                        FieldLocations& locations);

// parse_dag reads `[[task.node]]` (an array of {name, length, after} tables) into a DAG; `after`
// names earlier or later nodes of the same task. Cycles and unknown names are reported at the node.
DagSpec parse_dag(const TableReader& task, const toml::node& value, FieldLocations& locations);

// parse_steal reads `[task.steal]` (max_depth, stack_bytes, frames_per_worker).
StealConfig parse_steal(const TableReader& task, const toml::node& value,
                        FieldLocations& locations);

}  // namespace rtpar::model
