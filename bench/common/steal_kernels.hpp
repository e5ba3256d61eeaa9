// steal_kernels.hpp — the four kernels of `rtpar bench steal`, their inputs and serial versions.
//
// Every bench program (rtpar, libgomp, LLVM libomp, oneTBB) includes this header and compiles the
// serial kernels with its own compiler, so the speedup of each row is over a serial version built
// the same way. The parallel versions live in the programs (bench/programs/steal_*.cpp); they share
// the leaf code here (the UTS node rule; the matmul and heat row loops, compiled once in
// steal_rows.cpp), so a parallel result must equal the serial one exactly: matmul inputs are small
// integers (every product and sum is exact in double), and heat evaluates one fixed expression per
// point whichever thread computes it.
//
//   fib     naive fib(n), no cutoff: one spawn per call (spawn-bound).
//   uts     unbalanced tree search, binomial tree (Olivier et al., "UTS: An Unbalanced Tree Search
//           Benchmark", LCPC 2006, §2.1): the root has b0 children, every other node m children
//           with probability q, else none. With m·q close to 1 the subtrees are wildly unbalanced.
//           One task per node; the result is the node count. The node rule is UTS's own SHA-1
//           rule (src/kernels/uts_rng.hpp), so the published sample trees' sizes hold; the
//           default tree is P3LS3 §5.1's (b0 = 140, m = 8, q = 0.124875; seed 146: 72,197 nodes).
//   matmul  C = A·B, n×n doubles, rows in parallel (P3LS3 §5.2).
//   heat    2-D Jacobi (5-point stencil) on an n×n grid with a fixed boundary, `steps` sweeps,
//           one parallel loop over the interior rows per sweep.
//   fft     recursive radix-2 Cooley-Tukey FFT of n points, the halves forked (steal_fft.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/mix64.hpp"
#include "common/steal_fft.hpp"
#include "common/steal_rows.hpp"
#include "kernels/heat_grid.hpp"
#include "kernels/uts_tree.hpp"

namespace rtpar_bench {

// fib_serial is the naive recursion the parallel versions spawn at every call.
inline std::uint64_t fib_serial(int n) {
  return n < 2 ? static_cast<std::uint64_t>(n) : fib_serial(n - 1) + fib_serial(n - 2);
}

// The UTS tree is the `uts` kernel's (src/kernels/uts_tree.hpp): one node rule for the benchmark
// and the kernel, under the benchmark's short names.
using UtsParams = rtpar::kernels::UtsParams;
using UtsNode = rtpar::kernels::UtsNode;
using UtsShape = rtpar::kernels::UtsTreeShape;

// uts_root is the root node of the tree of p.
inline UtsNode uts_root(const UtsParams& p) { return rtpar::kernels::uts_root_of(p); }
// uts_children is how many children node has.
inline int uts_children(const UtsParams& p, const UtsNode& node) {
  return rtpar::kernels::uts_child_count(p, node);
}
// uts_child is child i of node.
inline UtsNode uts_child(const UtsNode& node, int i) {
  return rtpar::kernels::uts_child_of(node, i);
}

// uts_count_serial counts the subtree of node depth-first, recursively (the serial kernel).
inline std::uint64_t uts_count_serial(const UtsParams& p, const UtsNode& node) {
  const int n = uts_children(p, node);
  std::uint64_t count = 1;
  for (int i = 0; i < n; ++i) count += uts_count_serial(p, uts_child(node, i));
  return count;
}

// uts_shape measures the whole tree of p: node count, depth and the most spawns open at once
// along one root-to-node path (what a spawn-every-child runtime holds on one worker's frames).
inline UtsShape uts_shape(const UtsParams& p) {
  return rtpar::kernels::uts_tree_shape(p, UINT64_MAX);
}

// Matmul holds C = A·B for n×n row-major matrices.
struct Matmul {
  int n = 0;
  std::vector<double> a, b, c;

  // Matmul fills A and B with small integers in [-8, 8] (exact products and sums: |Σ| ≤ 64 n).
  explicit Matmul(int size)
      : n(size), a(static_cast<std::size_t>(size) * size), b(a.size()), c(a.size(), 0.0) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        a[static_cast<std::size_t>(i) * n + j] = static_cast<double>((i * 7 + j * 3) % 17 - 8);
        b[static_cast<std::size_t>(i) * n + j] = static_cast<double>((i * 5 + j * 11) % 17 - 8);
      }
    }
  }

  // rows computes rows [r0, r1) of C (steal_rows.cpp).
  void rows(int r0, int r1) { steal_matmul_rows(a.data(), b.data(), c.data(), n, r0, r1); }

  // reset clears C (untimed, before each repetition, so a skipped row cannot pass verification).
  void reset() { std::fill(c.begin(), c.end(), -1.0); }

  // serial computes all of C.
  void serial() { rows(0, n); }
};

// Heat holds a 2-D Jacobi iteration on two n×n buffers: sweep s reads buf[s % 2] and writes
// buf[(s + 1) % 2], so the parallel versions need no copy or swap between sweeps (one barrier per
// sweep, whatever the runtime). The boundary is fixed in both buffers.
struct Heat {
  int n = 0;
  int steps = 0;
  std::vector<double> init, buf[2];

  // Heat starts from the heat kernel's grid (src/kernels/heat_grid.hpp).
  Heat(int size, int sweeps)
      : n(size), steps(sweeps), init(rtpar::kernels::heat_initial_grid(size)) {
    reset();
  }

  // reset restores the initial grid in both buffers (untimed, before each repetition).
  void reset() {
    buf[0] = init;
    buf[1] = init;
  }

  // rows computes interior rows [r0, r1) of sweep `step` (1 ≤ r0 ≤ r1 ≤ n-1; steal_rows.cpp).
  void rows(int step, int r0, int r1) {
    steal_heat_rows(buf[step & 1].data(), buf[(step + 1) & 1].data(), n, r0, r1);
  }

  // result is the grid after all sweeps.
  [[nodiscard]] std::vector<double>& result() { return buf[steps & 1]; }

  // serial runs all sweeps.
  void serial() {
    for (int s = 0; s < steps; ++s) rows(s, 1, n - 1);
  }
};

// same_doubles compares two arrays bit for bit (the kernels are exact; see the file comment).
inline bool same_doubles(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

// checksum64 folds an array's bits into a 64-bit value, for the result row (so rows of the same
// kernel from different programs can be compared: all must have computed the same numbers).
inline std::uint64_t checksum64(const std::vector<double>& x) {
  std::uint64_t h = 0x243F6A8885A308D3ull;
  for (double v : x) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    h = mix64(h ^ bits);
  }
  return h;
}

}  // namespace rtpar_bench
