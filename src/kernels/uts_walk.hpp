// uts_walk.hpp — the parallel traversal of the `uts` kernel's tree on rtpar's work stealing: one
// steal::Scope per node, one spawn per child. The kernel (uts.cpp) and the benchmark program
// rtpar-bench-steal-rtpar (bench/programs/steal_rtpar.cpp) both run this one traversal, so the
// benchmark measures what the kernel does.
#pragma once

#include <atomic>
#include <cstdint>

#include "kernels/uts_tree.hpp"
#include "rtpar/steal.hpp"

namespace rtpar::kernels {

// uts_count_parallel counts the subtree of node (the root included: its child count is b0): one
// spawn per child, each adding its subtree's count into the node's total, then sync. Call it
// inside a steal pool's run. The total is an atomic rather than a per-child array so a node's
// stack frame stays small and fixed whatever its child count (a root with thousands of children,
// deep trees on small worker stacks); sync orders every child's add before the read
// (docs/internals/steal.md §3), so relaxed adds suffice.
inline std::uint64_t uts_count_parallel(const UtsParams& p, const UtsNode& node) {
  const int n = uts_child_count(p, node);
  if (n == 0) return 1;
  std::atomic<std::uint64_t> total{1};
  {
    steal::Scope scope;
    for (int i = 0; i < n; ++i) {
      scope.spawn([&p, node, &total, i] {
        // relaxed: an RMW, so no child's add is lost; the read below is ordered by sync().
        total.fetch_add(uts_count_parallel(p, uts_child_of(node, i)), std::memory_order_relaxed);
      });
    }
    scope.sync();
  }
  // relaxed: sync() made every child's add happen-before this load: a stolen child ends with a
  // release store of DONE that sync() reads with acquire (docs/internals/steal.md §3.2, §3.4).
  return total.load(std::memory_order_relaxed);
}

}  // namespace rtpar::kernels
