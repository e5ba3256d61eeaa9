// structure.hpp — the math of a task's shape, written once: DAG order, cycle detection, work and
// span of DAG and parallel-synchronous tasks. Used by the loader, the rules (taskset_validate) and
// the planners (analysis/bounds/stages).
#pragma once

#include <cstddef>
#include <vector>

#include "rtpar/taskset.hpp"

namespace rtpar::model {

// topological_order lists the nodes of dag so that every node comes after the nodes in its
// `after` list (Kahn's algorithm). Nodes on a cycle are left out; dag_cycle finds them.
std::vector<std::size_t> topological_order(const DagSpec& dag);

// dag_cycle returns the index of a node that lies on a cycle, or -1 when the DAG is acyclic.
int dag_cycle(const DagSpec& dag);

// dag_work is Σ node lengths; dag_span the longest path (requires an acyclic DAG). Both saturate
// at the largest Duration instead of overflowing.
Duration dag_work(const DagSpec& dag);
Duration dag_span(const DagSpec& dag);

// segments_work is Σ strands·length; segments_span is Σ length (saturating like dag_work).
Duration segments_work(const std::vector<SegmentSpec>& segments);
Duration segments_span(const std::vector<SegmentSpec>& segments);

}  // namespace rtpar::model
