// steal_rtws_omp.hpp — the RTWS §IV kernels (synchronous tasks, tiled Cholesky and LU) on
// OpenMP, for rtpar-bench-steal-gomp and -libomp (steal_omp.cpp).
//
// RTWS §IV-A's OpenMP versions run on GNU OpenMP's centralized scheduler. Here:
//   sync1..3   one `#pragma omp parallel` per repetition, one `#pragma omp for
//              schedule(dynamic,1)` per segment: every node is taken from the shared work queue
//              (the "global work queue" RTWS §IV-A blames for type 1), and the loop's implicit
//              barrier ends the segment.
//   cholesky   one `#pragma omp task` per tile operation, ordered by `depend` on the tiles it
//   lu         reads and writes (the DAG of the tiled algorithm, steal_tiled.hpp), from
//              `parallel` + `single`.
#pragma once

#include <omp.h>

#include <cstdint>

#include "common/steal_driver.hpp"

namespace rtpar_bench {

// omp_sync runs a synchronous task on nt threads, dynamic schedule with chunk 1.
inline void omp_sync(SyncTask& t, int nt) {
  const int segments = t.segments();
#pragma omp parallel num_threads(nt)
  for (int s = 0; s < segments; ++s) {
    const std::int64_t lo = t.start[static_cast<std::size_t>(s)];
    const std::int64_t hi = t.start[static_cast<std::size_t>(s) + 1];
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t i = lo; i < hi; ++i) t.node(i);
  }
}

// omp_cholesky_tasks spawns Cholesky's tile operations as tasks with tile dependences (called
// inside a single region).
inline void omp_cholesky_tasks(TiledMatrix& m) {
  const int t = m.tiles;
  for (int k = 0; k < t; ++k) {
    [[maybe_unused]] double* akk = m.tile(k, k);
#pragma omp task depend(inout : akk[0]) firstprivate(k) shared(m)
    chol_potrf(m, k);
    for (int i = k + 1; i < t; ++i) {
      [[maybe_unused]] double* aik = m.tile(i, k);
#pragma omp task depend(in : akk[0]) depend(inout : aik[0]) firstprivate(k, i) shared(m)
      chol_trsm(m, k, i);
    }
    for (int i = k + 1; i < t; ++i) {
      for (int j = k + 1; j <= i; ++j) {
        [[maybe_unused]] double* aik = m.tile(i, k);
        [[maybe_unused]] double* ajk = m.tile(j, k);
        [[maybe_unused]] double* aij = m.tile(i, j);
#pragma omp task depend(in : aik[0], ajk[0]) depend(inout : aij[0]) firstprivate(k, i, j) shared(m)
        chol_update(m, k, i, j);
      }
    }
  }
}

// omp_lu_tasks spawns LU's tile operations as tasks with tile dependences (inside a single).
inline void omp_lu_tasks(TiledMatrix& m) {
  const int t = m.tiles;
  for (int k = 0; k < t; ++k) {
    [[maybe_unused]] double* akk = m.tile(k, k);
#pragma omp task depend(inout : akk[0]) firstprivate(k) shared(m)
    lu_getrf(m, k);
    for (int j = k + 1; j < t; ++j) {
      [[maybe_unused]] double* akj = m.tile(k, j);
#pragma omp task depend(in : akk[0]) depend(inout : akj[0]) firstprivate(k, j) shared(m)
      lu_trsm_row(m, k, j);
      [[maybe_unused]] double* ajk = m.tile(j, k);
#pragma omp task depend(in : akk[0]) depend(inout : ajk[0]) firstprivate(k, j) shared(m)
      lu_trsm_col(m, k, j);
    }
    for (int i = k + 1; i < t; ++i) {
      for (int j = k + 1; j < t; ++j) {
        [[maybe_unused]] double* aik = m.tile(i, k);
        [[maybe_unused]] double* akj = m.tile(k, j);
        [[maybe_unused]] double* aij = m.tile(i, j);
#pragma omp task depend(in : aik[0], akj[0]) depend(inout : aij[0]) firstprivate(k, i, j) shared(m)
        lu_update(m, k, i, j);
      }
    }
  }
}

// (The tile pointers are [[maybe_unused]]: gcc 12 warns on variables used only in depend.)
// add_rtws_omp_kernels sets k.sync and k.tiled for a team of nt threads.
inline void add_rtws_omp_kernels(int nt, StealKernels& k) {
  k.sync = [nt](SyncTask& t) { omp_sync(t, nt); };
  k.tiled = [nt](TiledMatrix& m) {
    TiledMatrix* mp = &m;
#pragma omp parallel num_threads(nt)
#pragma omp single
    {
      if (mp->lu) {
        omp_lu_tasks(*mp);
      } else {
        omp_cholesky_tasks(*mp);
      }
    }
  };
}

}  // namespace rtpar_bench
