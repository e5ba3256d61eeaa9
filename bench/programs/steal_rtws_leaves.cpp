// steal_rtws_leaves.cpp — the leaf code of the RTWS §IV kernels (steal_rtws_leaves.hpp),
// compiled once at -O3 and linked into every `rtpar bench steal` program (why: steal_rows.cpp).
// Each loop has one fixed evaluation order, so a tile's result depends only on its inputs, never
// on the thread that computed it. No standard library: nothing ABI-dependent crosses.
#include "common/steal_rtws_leaves.hpp"

#include <cmath>
#include <cstddef>

namespace rtpar_bench {

namespace {

// at indexes element (i, j) of a row-major b×b tile.
inline std::size_t at(int i, int j, int b) {
  return static_cast<std::size_t>(i) * static_cast<std::size_t>(b) + static_cast<std::size_t>(j);
}

}  // namespace

std::uint32_t steal_sync_node(std::uint64_t seed, std::int64_t ns) {
  std::uint64_t x = seed;
  const std::int64_t steps = ns * 5 / 7;
  for (std::int64_t i = 0; i < steps; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    asm volatile("" : "+r"(x));  // a dependent chain the compiler may not fold
  }
  return static_cast<std::uint32_t>(x >> 32);
}

void steal_chol_potrf(double* a, int b) {
  for (int j = 0; j < b; ++j) {
    double d = a[at(j, j, b)];
    for (int p = 0; p < j; ++p) d -= a[at(j, p, b)] * a[at(j, p, b)];
    d = std::sqrt(d);
    a[at(j, j, b)] = d;
    for (int i = j + 1; i < b; ++i) {
      double s = a[at(i, j, b)];
      for (int p = 0; p < j; ++p) s -= a[at(i, p, b)] * a[at(j, p, b)];
      a[at(i, j, b)] = s / d;
    }
  }
}

void steal_chol_trsm(const double* l, double* a, int b) {
  for (int r = 0; r < b; ++r) {
    for (int j = 0; j < b; ++j) {
      double s = a[at(r, j, b)];
      for (int p = 0; p < j; ++p) s -= a[at(r, p, b)] * l[at(j, p, b)];
      a[at(r, j, b)] = s / l[at(j, j, b)];
    }
  }
}

void steal_gemm_nt(const double* a, const double* bt, double* c, int b) {
  for (int i = 0; i < b; ++i) {
    for (int j = 0; j < b; ++j) {
      double s = 0.0;
      for (int p = 0; p < b; ++p) s += a[at(i, p, b)] * bt[at(j, p, b)];
      c[at(i, j, b)] -= s;
    }
  }
}

void steal_lu_getrf(double* a, int b) {
  for (int p = 0; p < b; ++p) {
    const double piv = a[at(p, p, b)];
    for (int i = p + 1; i < b; ++i) {
      const double f = a[at(i, p, b)] / piv;
      a[at(i, p, b)] = f;
      for (int j = p + 1; j < b; ++j) a[at(i, j, b)] -= f * a[at(p, j, b)];
    }
  }
}

void steal_lu_trsm_l(const double* l, double* a, int b) {
  for (int i = 1; i < b; ++i) {
    for (int p = 0; p < i; ++p) {
      const double f = l[at(i, p, b)];
      for (int j = 0; j < b; ++j) a[at(i, j, b)] -= f * a[at(p, j, b)];
    }
  }
}

void steal_lu_trsm_u(const double* u, double* a, int b) {
  for (int r = 0; r < b; ++r) {
    for (int j = 0; j < b; ++j) {
      double s = a[at(r, j, b)];
      for (int p = 0; p < j; ++p) s -= a[at(r, p, b)] * u[at(p, j, b)];
      a[at(r, j, b)] = s / u[at(j, j, b)];
    }
  }
}

void steal_gemm_nn(const double* a, const double* bm, double* c, int b) {
  for (int i = 0; i < b; ++i) {
    for (int p = 0; p < b; ++p) {
      const double f = a[at(i, p, b)];
      for (int j = 0; j < b; ++j) c[at(i, j, b)] -= f * bm[at(p, j, b)];
    }
  }
}

}  // namespace rtpar_bench
