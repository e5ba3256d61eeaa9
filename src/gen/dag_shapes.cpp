// dag_shapes.cpp — Erdős–Rényi and nested fork/join DAGs (dag_shapes.hpp).
#include "core/fp_strict.hpp"  // first: no FMA contraction in this file

#include "gen/dag_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace rtpar::gen {

namespace {

// kWeightScale turns the U[1, 10) weights into ns (1–10 ms) before scale_dag, so an unscaled DAG
// is still a valid one.
constexpr double kWeightScale = 1e6;

// add_node appends a node named n<index> with a random weight and returns its index.
int add_node(DagSpec& dag, Rng& rng, std::vector<int> after) {
  DagNode node;
  node.name = "n" + std::to_string(dag.nodes.size());
  node.length = Duration(static_cast<std::int64_t>(rng.uniform_real(1.0, 10.0) * kWeightScale));
  node.after = std::move(after);
  dag.nodes.push_back(std::move(node));
  return static_cast<int>(dag.nodes.size()) - 1;
}

// expand adds one branch after `pred`: a single node, or (with fork_prob, above the depth limit) a
// fork node, its branches and a join. Returns the branch's last node.
int expand(DagSpec& dag, Rng& rng, int pred, int depth, int branches_min, int branches_max,
           double fork_prob, bool force_fork) {
  const std::vector<int> after = pred < 0 ? std::vector<int>{} : std::vector<int>{pred};
  if (depth <= 0 || (!force_fork && rng.uniform01() >= fork_prob)) {
    return add_node(dag, rng, after);
  }
  const int fork = add_node(dag, rng, after);
  const auto k = rng.uniform_int(branches_min, branches_max);
  std::vector<int> ends;
  for (std::int64_t b = 0; b < k; ++b) {
    ends.push_back(expand(dag, rng, fork, depth - 1, branches_min, branches_max, fork_prob, false));
  }
  return add_node(dag, rng, ends);
}

}  // namespace

DagSpec erdos_renyi_dag(Rng& rng, int nodes, double p) {
  DagSpec dag;
  for (int j = 0; j < nodes; ++j) {
    std::vector<int> after;
    for (int i = 0; i < j; ++i) {
      if (rng.uniform01() < p) after.push_back(i);
    }
    add_node(dag, rng, std::move(after));
  }
  return dag;
}

DagSpec nested_fork_join_dag(Rng& rng, int depth, int branches_min, int branches_max,
                             double fork_prob) {
  DagSpec dag;
  expand(dag, rng, -1, depth, branches_min, branches_max, fork_prob, true);
  return dag;
}

void scale_dag(DagSpec& dag, Duration work) {
  double total = 0;
  for (const DagNode& n : dag.nodes) total += static_cast<double>(n.length.count());
  const double factor = static_cast<double>(work.count()) / total;
  for (DagNode& n : dag.nodes) {
    const double len = std::floor(static_cast<double>(n.length.count()) * factor);
    n.length = Duration(std::max<std::int64_t>(1, static_cast<std::int64_t>(len)));
  }
}

}  // namespace rtpar::gen
