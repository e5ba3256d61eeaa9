// dag_shapes.hpp — random DAG shapes: Erdős–Rényi edges over a fixed topological order, and
// nested fork/join (series-parallel) graphs. Node lengths are relative weights, scaled later.
#pragma once

#include <vector>

#include "core/rng.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::gen {

// erdos_renyi_dag has `nodes` nodes in topological order 0..n−1; each pair i < j gets the edge
// i → j with probability p (Erdős–Rényi G(n, p) restricted to forward edges, so it is acyclic).
// Node lengths are weights uniform in [1, 10) ns·10^6 before scaling (scale_dag).
DagSpec erdos_renyi_dag(Rng& rng, int nodes, double p);

// nested_fork_join_dag builds a series-parallel graph: the root is a fork with
// U{branches_min..branches_max} branches; each branch node below `depth` levels becomes a nested
// fork/join with probability fork_prob; every fork has a matching join node.
DagSpec nested_fork_join_dag(Rng& rng, int depth, int branches_min, int branches_max,
                             double fork_prob);

// scale_dag rescales the node lengths (weights) so that Σ lengths ≈ work: each is floor of its
// share of work, at least 1 ns; the total never exceeds work by more than the 1 ns floors.
void scale_dag(DagSpec& dag, Duration work);

}  // namespace rtpar::gen
