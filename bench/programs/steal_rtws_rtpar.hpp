// steal_rtws_rtpar.hpp — the RTWS §IV kernels (synchronous tasks, tiled Cholesky and LU) on
// rtpar's work-stealing pool, for rtpar-bench-steal-rtpar (steal_rtpar.cpp).
//
// RTWS §IV-A runs them on Cilk Plus: a synchronous segment is a cilk_for, and the factorizations
// spawn and sync. Here a segment is one steal::parallel_for with Cilk Plus's default cilk_for
// grain, min(2048, ⌈N / 8P⌉) (Intel Cilk Plus reference, "cilk_for grainsize"), and each phase of
// a factorization step one steal::parallel_for with grain 1 (a tile is a base case).
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/steal_driver.hpp"
#include "rtpar/steal.hpp"

namespace rtpar_bench {

// cilk_grain is Cilk Plus's default cilk_for grain for n iterations on p workers.
inline std::int64_t cilk_grain(std::int64_t n, int p) {
  const std::int64_t per = (n + 8 * p - 1) / (8 * static_cast<std::int64_t>(p));
  return std::clamp<std::int64_t>(per, 1, 2048);
}

// add_rtws_rtpar_kernels sets k.sync and k.tiled to run on `pool` (`threads` workers); every
// call is one pool.run, like the other kernels' repetitions.
inline void add_rtws_rtpar_kernels(rtpar::steal::Pool& pool, int threads, StealKernels& k) {
  namespace steal = rtpar::steal;
  k.sync = [&pool, threads](SyncTask& t) {
    pool.run([&t, threads] {
      for (int s = 0; s < t.segments(); ++s) {
        const std::int64_t lo = t.start[static_cast<std::size_t>(s)];
        const std::int64_t hi = t.start[static_cast<std::size_t>(s) + 1];
        steal::parallel_for(lo, hi, cilk_grain(hi - lo, threads),
                            [&t](std::int64_t i) { t.node(i); });
      }
    });
  };
  k.tiled = [&pool](TiledMatrix& m) {
    pool.run([&m] {
      tiled_forkjoin(m, [](std::int64_t count, auto&& body) {
        steal::parallel_for(0, count, 1, body);
      });
    });
  };
}

}  // namespace rtpar_bench
