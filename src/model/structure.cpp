// structure.cpp — see structure.hpp.
#include "model/structure.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/checked_math.hpp"

namespace rtpar::model {

namespace {

// saturate narrows a 128-bit nanosecond sum to a Duration, clamping at the largest value so that
// check_taskset can report "too large" (taskset_validate.cpp) instead of a wrapped number.
Duration saturate(__int128 ns) { return Duration(sat_narrow(ns)); }

}  // namespace

std::vector<std::size_t> topological_order(const DagSpec& dag) {
  // Kahn's algorithm on the reversed `after` lists.
  const std::size_t n = dag.nodes.size();
  std::vector<std::vector<std::size_t>> succ(n);
  std::vector<std::size_t> indegree(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    for (const int p : dag.nodes[v].after) {
      if (p < 0 || static_cast<std::size_t>(p) >= n) continue;  // check_taskset reports it
      succ[static_cast<std::size_t>(p)].push_back(v);
      ++indegree[v];
    }
  }
  std::vector<std::size_t> order;
  order.reserve(n);
  std::vector<std::size_t> ready;
  for (std::size_t v = 0; v < n; ++v) {
    if (indegree[v] == 0) ready.push_back(v);
  }
  while (!ready.empty()) {
    const std::size_t v = ready.back();
    ready.pop_back();
    order.push_back(v);
    for (const std::size_t s : succ[v]) {
      if (--indegree[s] == 0) ready.push_back(s);
    }
  }
  return order;
}

int dag_cycle(const DagSpec& dag) {
  // Iterative three-colour DFS over the predecessor lists: a grey node reached again is on a
  // cycle. Iterative so that a long chain cannot overflow the stack.
  const std::size_t n = dag.nodes.size();
  std::vector<char> colour(n, 0);  // 0 white, 1 grey, 2 black
  std::vector<std::pair<std::size_t, std::size_t>> stack;
  for (std::size_t root = 0; root < n; ++root) {
    if (colour[root] != 0) continue;
    stack.emplace_back(root, 0);
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const std::vector<int>& preds = dag.nodes[node].after;
      if (next == preds.size()) {
        colour[node] = 2;
        stack.pop_back();
        continue;
      }
      const auto p = static_cast<std::size_t>(preds[next++]);
      if (p >= n) continue;  // an out-of-range index is check_taskset's to report
      if (colour[p] == 1) return static_cast<int>(p);
      if (colour[p] == 0) {
        colour[p] = 1;
        stack.emplace_back(p, 0);
      }
    }
  }
  return -1;
}

Duration dag_work(const DagSpec& dag) {
  __int128 sum = 0;
  for (const DagNode& node : dag.nodes) sum += node.length.count();
  return saturate(sum);
}

Duration dag_span(const DagSpec& dag) {
  // Longest path: each node's finish is its length after the latest predecessor finish, taken in
  // topological order so that every predecessor is final when a node is reached.
  __int128 longest = 0;
  std::vector<__int128> finish(dag.nodes.size(), 0);
  for (const std::size_t v : topological_order(dag)) {
    __int128 ready = 0;
    for (const int p : dag.nodes[v].after) {
      if (p < 0 || static_cast<std::size_t>(p) >= finish.size()) continue;  // check_taskset's
      ready = std::max(ready, finish[static_cast<std::size_t>(p)]);
    }
    finish[v] = ready + dag.nodes[v].length.count();
    longest = std::max(longest, finish[v]);
  }
  return saturate(longest);
}

Duration segments_work(const std::vector<SegmentSpec>& segments) {
  __int128 sum = 0;
  for (const SegmentSpec& s : segments) sum += static_cast<__int128>(s.strands) * s.length.count();
  return saturate(sum);
}

Duration segments_span(const std::vector<SegmentSpec>& segments) {
  __int128 sum = 0;
  for (const SegmentSpec& s : segments) sum += s.length.count();
  return saturate(sum);
}

}  // namespace rtpar::model
