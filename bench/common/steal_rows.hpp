// steal_rows.hpp — the leaf loops of the matmul and heat kernels of `rtpar bench steal`, defined
// in bench/programs/steal_rows.cpp (one object, one compiler, linked into every steal program: see
// there).
#pragma once

namespace rtpar_bench {

// steal_matmul_rows computes rows [r0, r1) of C = A·B (n×n, row-major; i-k-j order, the inner loop
// streams a row of B). C's rows are written whole, so a skipped row cannot look computed.
void steal_matmul_rows(const double* a, const double* b, double* c, int n, int r0, int r1);

// steal_heat_rows computes interior rows [r0, r1) (1 ≤ r0 ≤ r1 ≤ n-1) of one Jacobi sweep from
// src into dst: the mean of the four neighbours, in one fixed evaluation order.
void steal_heat_rows(const double* src, double* dst, int n, int r0, int r1);

}  // namespace rtpar_bench
