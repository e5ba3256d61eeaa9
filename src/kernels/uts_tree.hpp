// uts_tree.hpp — the binomial UTS tree of the `uts` kernel: node rule, serial count and shape.
//
// Binomial UTS (Olivier et al., "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006, §2.1): the
// root has b0 children; every other node has m children with probability q, else none. With m·q
// close to 1 the subtrees are wildly unbalanced, which is what makes the tree a test of load
// balancing. The node rule hashes with splitmix64's finalizer instead of UTS's SHA-1 (cheaper, so
// the kernel stays spawn-bound); the tree is another sample of the same distribution, so its size
// is counted serially rather than taken from the UTS tables.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rtpar::kernels {

// UtsParams describes a binomial UTS tree.
struct UtsParams {
  int b0 = 2000;           // children of the root
  int m = 8;               // children of a non-root node that has any
  double q = 0.124875;     // probability that a non-root node has m children
  std::uint64_t seed = 0;  // b0=2000, m=8, q=0.124875, seed 0: 2,180,617 nodes, depth 1146
};

// UtsNode is one tree node: its random state and its depth (the root has depth 0).
struct UtsNode {
  std::uint64_t state;
  int depth;
};

// uts_mix is splitmix64's finalizer (Steele, Lea, Flood, OOPSLA 2014): a bijection on 64 bits.
inline std::uint64_t uts_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// uts_root_of is the root node of the tree of p.
inline UtsNode uts_root_of(const UtsParams& p) { return {uts_mix(p.seed), 0}; }

// uts_child_count is how many children node has: b0 for the root; for the others m if the node's
// uniform variate (top 53 bits of a hash of its state, in [0, 1)) is below q, else 0.
inline int uts_child_count(const UtsParams& p, const UtsNode& node) {
  if (node.depth == 0) return p.b0;
  const double u = static_cast<double>(uts_mix(node.state ^ 0x5851F42D4C957F2Dull) >> 11) *
                   (1.0 / 9007199254740992.0);
  return u < p.q ? p.m : 0;
}

// uts_child_of is child i of node (distinct per i: uts_mix is a bijection).
inline UtsNode uts_child_of(const UtsNode& node, int i) {
  return {uts_mix(node.state + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1)),
          node.depth + 1};
}

// UtsTreeShape is what one serial traversal learns: the node count (each job's result is checked
// against it) and what a spawn-every-child execution needs (P3LS3 §4.2: the budget comes from
// a serial measurement run).
struct UtsTreeShape {
  std::uint64_t nodes = 0;
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
    s.max_depth = std::max(s.max_depth, it.node.depth);
    const std::uint64_t open = it.open + static_cast<std::uint64_t>(n);
    s.max_open_spawns = std::max(s.max_open_spawns, open);
    for (int i = 0; i < n; ++i) stack.push_back({uts_child_of(it.node, i), open});
  }
  return s;
}

}  // namespace rtpar::kernels
