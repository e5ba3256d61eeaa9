// steal_rows.cpp — the leaf loops of matmul and heat (steal_kernels.hpp), compiled once, by the
// project compiler at -O3, and linked into every `rtpar bench steal` program (the clang-built
// libomp one too).
//
// Why one object: the programs are built by different compilers (OpenMP through libomp needs
// clang), and clang -O2 vectorizes these loops where gcc 12 -O2 does not — a 3–4× difference that
// would make matmul and heat compare compilers instead of runtimes. With one object every
// runtime, and every serial baseline, runs the same machine code per row. -O3 makes that code
// vectorized, as a real kernel would be. No standard library: nothing ABI-dependent crosses.
#include "common/steal_rows.hpp"

#include <cstddef>

namespace rtpar_bench {

void steal_matmul_rows(const double* a, const double* b, double* c, int n, int r0, int r1) {
  const std::size_t n_ = static_cast<std::size_t>(n);
  for (int i = r0; i < r1; ++i) {
    double* __restrict ci = c + static_cast<std::size_t>(i) * n_;
    for (std::size_t j = 0; j < n_; ++j) ci[j] = 0.0;
    for (std::size_t k = 0; k < n_; ++k) {
      const double aik = a[static_cast<std::size_t>(i) * n_ + k];
      const double* __restrict bk = b + k * n_;
      for (std::size_t j = 0; j < n_; ++j) ci[j] += aik * bk[j];
    }
  }
}

void steal_heat_rows(const double* src, double* dst, int n, int r0, int r1) {
  const std::size_t n_ = static_cast<std::size_t>(n);
  for (int i = r0; i < r1; ++i) {
    const double* __restrict up = src + (static_cast<std::size_t>(i) - 1) * n_;
    const double* __restrict mid = src + static_cast<std::size_t>(i) * n_;
    const double* __restrict down = src + (static_cast<std::size_t>(i) + 1) * n_;
    double* __restrict out = dst + static_cast<std::size_t>(i) * n_;
    for (std::size_t j = 1; j + 1 < n_; ++j) {
      out[j] = 0.25 * ((up[j] + down[j]) + (mid[j - 1] + mid[j + 1]));
    }
  }
}

}  // namespace rtpar_bench
