// steal_rtws_leaves.hpp — the leaf code of the RTWS §IV kernels of `rtpar bench steal` (the
// synchronous synthetic task's node, and the b×b tile operations of tiled Cholesky and LU),
// defined in bench/programs/steal_rtws_leaves.cpp: one object, one compiler, linked into every
// steal program like steal_rows.cpp, so every runtime and every serial baseline runs the same
// machine code and computes the same bits (the parallel results are compared bit for bit).
#pragma once

#include <cstdint>

namespace rtpar_bench {

// steal_sync_node is one node of RTWS §IV's synchronous task: it busy-works for about `ns`
// nanoseconds (a dependent multiply-add chain of ns × 5/7 steps, ~1.4 ns a step on this VM) from
// `seed` and returns the chain's last value (stored by the caller, so no node can be skipped).
std::uint32_t steal_sync_node(std::uint64_t seed, std::int64_t ns);

// steal_chol_potrf factors the b×b diagonal tile a in place: its lower triangle becomes L with
// L·Lᵀ = a (unblocked Cholesky–Crout; the strict upper triangle is left as it was).
void steal_chol_potrf(double* a, int b);

// steal_chol_trsm solves x·Lᵀ = a for the tile below the diagonal (l: the factored diagonal tile
// of the same column), in place.
void steal_chol_trsm(const double* l, double* a, int b);

// steal_gemm_nt updates c -= a·bᵀ (the trailing update of Cholesky: a = L_ik, bt = L_jk).
void steal_gemm_nt(const double* a, const double* bt, double* c, int b);

// steal_lu_getrf factors the b×b diagonal tile in place without pivoting (Doolittle: unit lower
// L below the diagonal, U on and above it). The benchmark's matrices are diagonally dominant, so
// no pivot is needed (RTWS §IV's LU "does not need to be positive definite"; ours needs no pivot).
void steal_lu_getrf(double* a, int b);

// steal_lu_trsm_l solves L·x = a in place for a tile right of the diagonal (l: the factored
// diagonal tile, unit lower part).
void steal_lu_trsm_l(const double* l, double* a, int b);

// steal_lu_trsm_u solves x·U = a in place for a tile below the diagonal (u: the factored
// diagonal tile, upper part).
void steal_lu_trsm_u(const double* u, double* a, int b);

// steal_gemm_nn updates c -= a·bm (the trailing update of LU: a = L_ik, bm = U_kj).
void steal_gemm_nn(const double* a, const double* bm, double* c, int b);

}  // namespace rtpar_bench
