// uts_tree.hpp — the UTS trees of the `uts` kernel and `rtpar bench steal --bench uts`: node rule,
// child counts, serial count and shape.
//
// UTS (Olivier et al., "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006, §2): a node's child
// count is drawn from its own SHA-1 state (uts_rng.hpp), so the tree is fixed by its parameters.
//   binomial   the root has b0 children; every other node m children with probability q, else
//              none (§2.1). With m·q close to 1 the subtrees are wildly unbalanced.
//   geometric  every node's child count is geometric with mean b_i, b_i a function of the depth
//              (the shape: linear decrease, exponential decrease, cyclic, fixed; gen_mx the depth
//              parameter), §2.2.
// Non-root nodes have at most 100 children (UTS's cap); a binomial root has exactly b0.
// The defaults are P3LS3 §5.1's binomial tree: b0 = 140, m = 8, q = 0.124875 ("about 71,000
// nodes"). The paper gives no seed; 146 is the first seed from 0 whose tree is within 5% of 71,000
// nodes (72,197 nodes, depth 335), a workload the paper describes rather than a result.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/uts_rng.hpp"

namespace rtpar::kernels {

// UtsTreeType is the child-count distribution (UTS's -t: 0 binomial, 1 geometric).
enum class UtsTreeType { binomial = 0, geometric = 1 };

// UtsGeoShape is how a geometric tree's mean branching factor falls with depth (UTS's -a).
enum class UtsGeoShape { linear = 0, expdec = 1, cyclic = 2, fixed = 3 };

// kUtsMaxChildren is UTS's cap on a non-root node's child count.
inline constexpr int kUtsMaxChildren = 100;

// UtsParams describes a UTS tree (UTS's command-line parameters in brackets).
struct UtsParams {
  UtsTreeType type = UtsTreeType::binomial;  // [-t]
  int b0 = 140;                              // [-b] root children (binomial), mean (geometric)
  int m = 8;                                 // [-m] children of a binomial non-leaf
  double q = 0.124875;                       // [-q] probability of a binomial non-leaf
  std::uint32_t seed = 146;                  // [-r] root seed (UTS's rootId, 31 bits)
  UtsGeoShape shape = UtsGeoShape::linear;   // [-a] geometric shape
  int gen_mx = 6;                            // [-d] geometric depth parameter
};

// UtsNode is one tree node: its SHA-1 state and its depth (the root has depth 0).
struct UtsNode {
  UtsState state;
  int depth;
};

// uts_root_of is the root node of the tree of p.
inline UtsNode uts_root_of(const UtsParams& p) { return {uts_rng_root(p.seed), 0}; }

// uts_geo_mean is a geometric tree's mean branching factor b_i at depth (UTS §2.2's shapes).
inline double uts_geo_mean(const UtsParams& p, int depth) {
  const double b0 = p.b0;
  if (depth == 0) return b0;
  const double d = depth, mx = p.gen_mx;
  switch (p.shape) {
    case UtsGeoShape::expdec:
      return b0 * std::pow(d, -std::log(b0) / std::log(mx));
    case UtsGeoShape::cyclic:
      if (depth > 5 * p.gen_mx) return 0.0;
      return std::pow(b0, std::sin(2.0 * 3.141592653589793 * d / mx));
    case UtsGeoShape::fixed:
      return depth < p.gen_mx ? b0 : 0.0;
    case UtsGeoShape::linear:
      break;
  }
  return b0 * (1.0 - d / mx);
}

// uts_child_count is how many children node has. Binomial: b0 for the root, else m if the node's
// probability is below q. Geometric: the inverse geometric CDF at the node's probability, for the
// p = 1 / (1 + b_i) whose mean is b_i. Both capped at kUtsMaxChildren below the root.
inline int uts_child_count(const UtsParams& p, const UtsNode& node) {
  int n = 0;
  if (p.type == UtsTreeType::binomial) {
    if (node.depth == 0) return p.b0;
    n = uts_rng_prob(node.state) < p.q ? p.m : 0;
  } else {
    const double prob = 1.0 / (1.0 + uts_geo_mean(p, node.depth));
    const double u = uts_rng_prob(node.state);
    n = static_cast<int>(std::floor(std::log(1.0 - u) / std::log(1.0 - prob)));
  }
  return std::min(n, kUtsMaxChildren);
}

// uts_child_of is child i of node.
inline UtsNode uts_child_of(const UtsNode& node, int i) {
  return {uts_rng_spawn(node.state, static_cast<std::uint32_t>(i)), node.depth + 1};
}

// UtsTreeShape is what one serial traversal learns: the node count (each job's result is checked
// against it) and what a spawn-every-child execution needs (P3LS3 §4.2: the budget comes from
// a serial measurement run).
struct UtsTreeShape {
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;
  int max_depth = 0;                  // deepest node (root = 0)
  std::uint64_t max_open_spawns = 0;  // max over nodes of Σ children of its ancestors and itself
};

// uts_tree_shape walks the tree of p with an explicit stack (no recursion limit), stopping once it
// has counted more than max_nodes nodes (then nodes = max_nodes + 1 and the rest is partial).
inline UtsTreeShape uts_tree_shape(const UtsParams& p, std::uint64_t max_nodes) {
  UtsTreeShape s;
  struct Item {
    UtsNode node;
    std::uint64_t open;  // Σ children of the ancestors (their spawns are still open)
  };
  std::vector<Item> stack{{uts_root_of(p), 0}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    const int n = uts_child_count(p, it.node);
    if (++s.nodes > max_nodes) return s;
    if (n == 0) ++s.leaves;
    s.max_depth = std::max(s.max_depth, it.node.depth);
    const std::uint64_t open = it.open + static_cast<std::uint64_t>(n);
    s.max_open_spawns = std::max(s.max_open_spawns, open);
    for (int i = 0; i < n; ++i) stack.push_back({uts_child_of(it.node, i), open});
  }
  return s;
}

}  // namespace rtpar::kernels
