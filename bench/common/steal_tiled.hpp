// steal_tiled.hpp — tiled Cholesky and LU factorization, kernels of `rtpar bench steal`
// (`--bench cholesky|lu`; RTWS §IV-A "Real DAG Benchmark Programs").
//
// RTWS §IV-A factors a 3000² (Cholesky) and a 2048² (LU) matrix with a 32×32 base case, and
// Fig. 7 a 1000² matrix with a 4×4 base case. Here the base case is the tile: the matrix is stored
// tile-major (T×T tiles of b×b doubles, each row-major) and factored right-looking, step k:
//   Cholesky  potrf(A_kk); trsm(A_kk, A_ik) for i > k; A_ij -= A_ik·A_jkᵀ for k < j ≤ i
//   LU        getrf(A_kk); trsm_l(A_kk, A_kj), trsm_u(A_kk, A_ik) for i, j > k;
//             A_ij -= A_ik·A_kj for i, j > k
// (Buttari et al., "A class of parallel tiled linear algebra algorithms", 2009). n is padded up
// to a multiple of b with the identity (a padded diagonal of 1, zeros elsewhere), which changes
// neither factor of the n×n block. The inputs are diagonally dominant (Cholesky: symmetric with a
// positive diagonal, so SPD), so LU needs no pivoting. Each tile is updated in the same k order
// whichever runtime runs it, and the leaf code is one object (steal_rtws_leaves.cpp), so a
// parallel result equals the serial one bit for bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/steal_rtws_leaves.hpp"

namespace rtpar_bench {

// TiledMatrix is an n×n matrix padded to T·b and stored tile by tile.
struct TiledMatrix {
  bool lu = false;  // LU's input (nonsymmetric) rather than Cholesky's (symmetric)
  int n = 0;        // the matrix's own size
  int b = 0;        // tile (base case) size
  int tiles = 0;    // T = ceil(n / b)
  std::vector<double> init, a;

  // TiledMatrix builds the input of Cholesky (is_lu false) or LU: off-diagonal entries in
  // [-0.5, 0.5], the diagonal n (dominant), padding the identity.
  TiledMatrix(bool is_lu, int size, int block)
      : lu(is_lu), n(size), b(block), tiles((size + block - 1) / block) {
    const int np = tiles * b;
    init.assign(static_cast<std::size_t>(np) * static_cast<std::size_t>(np), 0.0);
    for (int i = 0; i < np; ++i) {
      for (int j = 0; j < np; ++j) {
        double v = 0.0;
        if (i == j) {
          v = i < n ? static_cast<double>(n) : 1.0;
        } else if (i < n && j < n) {
          const int lo = std::min(i, j), hi = std::max(i, j);
          // Symmetric for Cholesky; LU's depends on the order of i and j.
          const int r = lu ? (i * 7 + j * 13) % 17 : (lo * 7 + hi * 13) % 17;
          v = (r - 8) / 16.0;
        }
        init[index(i, j)] = v;
      }
    }
    a = init;
  }

  // index is where element (i, j) of the padded matrix lives.
  [[nodiscard]] std::size_t index(int i, int j) const {
    const std::size_t tb = static_cast<std::size_t>(b) * static_cast<std::size_t>(b);
    const std::size_t tile = static_cast<std::size_t>(i / b) * static_cast<std::size_t>(tiles) +
                             static_cast<std::size_t>(j / b);
    return tile * tb + static_cast<std::size_t>(i % b) * static_cast<std::size_t>(b) +
           static_cast<std::size_t>(j % b);
  }

  // tile is the first element of tile (ti, tj).
  double* tile(int ti, int tj) { return a.data() + index(ti * b, tj * b); }

  // reset restores the input (untimed, before each repetition).
  void reset() { a = init; }

  // size names the kernel's parameters for the row.
  [[nodiscard]] std::string size() const {
    return "n=" + std::to_string(n) + ",block=" + std::to_string(b);
  }
};

// chol_step_tasks are the three phases of Cholesky step k; each runtime decides how to run the
// independent calls of a phase (update(i, j) is called only for k < j ≤ i).
inline void chol_potrf(TiledMatrix& m, int k) { steal_chol_potrf(m.tile(k, k), m.b); }
// chol_trsm solves tile (i, k) against the factored diagonal tile k.
inline void chol_trsm(TiledMatrix& m, int k, int i) {
  steal_chol_trsm(m.tile(k, k), m.tile(i, k), m.b);
}
// chol_update applies step k to tile (i, j), k < j ≤ i.
inline void chol_update(TiledMatrix& m, int k, int i, int j) {
  steal_gemm_nt(m.tile(i, k), m.tile(j, k), m.tile(i, j), m.b);
}

// lu_getrf factors diagonal tile k.
inline void lu_getrf(TiledMatrix& m, int k) { steal_lu_getrf(m.tile(k, k), m.b); }
// lu_trsm_row solves tile (k, j), j > k, with L_kk.
inline void lu_trsm_row(TiledMatrix& m, int k, int j) {
  steal_lu_trsm_l(m.tile(k, k), m.tile(k, j), m.b);
}
// lu_trsm_col solves tile (i, k), i > k, with U_kk.
inline void lu_trsm_col(TiledMatrix& m, int k, int i) {
  steal_lu_trsm_u(m.tile(k, k), m.tile(i, k), m.b);
}
// lu_update applies step k to tile (i, j), i, j > k.
inline void lu_update(TiledMatrix& m, int k, int i, int j) {
  steal_gemm_nn(m.tile(i, k), m.tile(k, j), m.tile(i, j), m.b);
}

// tiled_forkjoin runs the factorization as one parallel loop per phase and step (a Cilk-style
// spawn/sync structure: RTWS §IV-A's programs are "divide and conquer" with "lots of spawn and
// sync"). pfor(count, body) must call body(idx) for every idx in [0, count) and return when all
// are done. With a serial pfor it is the serial kernel.
template <class ParallelFor>
void tiled_forkjoin(TiledMatrix& m, ParallelFor&& pfor) {
  const int t = m.tiles;
  for (int k = 0; k < t; ++k) {
    const int rest = t - k - 1;
    if (m.lu) {
      lu_getrf(m, k);
      // Row and column panels in one loop: idx < rest is row tile k+1+idx, else column tile.
      pfor(2 * rest, [&m, k, rest](std::int64_t idx) {
        const int r = static_cast<int>(idx);
        if (r < rest) {
          lu_trsm_row(m, k, k + 1 + r);
        } else {
          lu_trsm_col(m, k, k + 1 + r - rest);
        }
      });
      pfor(static_cast<std::int64_t>(rest) * rest, [&m, k, rest](std::int64_t idx) {
        lu_update(m, k, k + 1 + static_cast<int>(idx / rest), k + 1 + static_cast<int>(idx % rest));
      });
    } else {
      chol_potrf(m, k);
      pfor(rest, [&m, k](std::int64_t idx) { chol_trsm(m, k, k + 1 + static_cast<int>(idx)); });
      // The lower triangle k < j ≤ i, flattened: row i has i - k tiles.
      pfor(static_cast<std::int64_t>(rest) * (rest + 1) / 2, [&m, k](std::int64_t idx) {
        // Row i starts at i(i+1)/2: invert with a square root, then correct its rounding.
        auto i = static_cast<int>((std::sqrt(8.0 * static_cast<double>(idx) + 1.0) - 1.0) / 2.0);
        while (static_cast<std::int64_t>(i) * (i + 1) / 2 > idx) --i;
        while (static_cast<std::int64_t>(i + 1) * (i + 2) / 2 <= idx) ++i;
        const int j = static_cast<int>(idx - static_cast<std::int64_t>(i) * (i + 1) / 2);
        chol_update(m, k, k + 1 + i, k + 1 + j);
      });
    }
  }
}

// tiled_serial factors m on the calling thread (the serial baseline).
inline void tiled_serial(TiledMatrix& m) {
  tiled_forkjoin(m, [](std::int64_t count, auto&& body) {
    for (std::int64_t i = 0; i < count; ++i) body(i);
  });
}

}  // namespace rtpar_bench
