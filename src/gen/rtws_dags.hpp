// rtws_dags.hpp — DAG templates of the RTWS benchmarks (RTWS §VII; experiments.md item 20,
// "a job model per benchmark and size"): tiled Cholesky and LU factorizations and Heat as steps
// of parallel_for, scaled to a profiled work C and burdened span L̂, so that the simulator's
// work-stealing and centralized models run a structure like the benchmark's instead of the
// chain-plus-bag of "C and L only".
#pragma once

#include <cstdint>
#include <string>

#include "rtpar/taskset.hpp"

namespace rtpar::gen {

// RtwsBenchmark names a template.
enum class RtwsBenchmark { cholesky, lu, heat };

// rtws_template is the weighted DAG of benchmark `b` at size `size` (node lengths are relative
// costs in ns, flops ∝ 3× the kernel's count):
//  * cholesky: right-looking tiled Cholesky on size × size tiles: per step k, POTRF(k) (1), then
//    TRSM(i, k) for i > k (3), then the update of tile (i, j), k < j ≤ i, SYRK (3) on the diagonal,
//    GEMM (6) off it; a task waits for the tiles it reads and the previous update of its tile;
//  * lu: tiled LU without pivoting: GETRF(k) (2), TRSM of row k and of column k (3 each), GEMM
//    update (6) of every (i, j) with i, j > k, with the same dependencies;
//  * heat: `steps` steps of a parallel_for of `size` strips (16 each) closed by a join (1): every
//    strip of a step waits for the previous step's join (cilk_for's implicit sync).
// size ≥ 1, steps ≥ 1.
DagSpec rtws_template(RtwsBenchmark b, int size, int steps);

// rtws_benchmark reads "cholesky", "lu", "heat"; false for anything else.
bool rtws_benchmark(const std::string& name, RtwsBenchmark& out);

// kMaxTemplateNodes bounds a template's nodes (per job), so that a simulation stays feasible.
inline constexpr std::int64_t kMaxTemplateNodes = 40'000;

// fit_rtws_dag is the template of `b` scaled to work C and span L̂ exactly: at `tiles` tiles per
// side (Heat: strips per step) when tiles > 0 — the benchmark's grain, RTWS §IV-A, whose programs
// split a matrix into many small blocks — or else the smallest size (≤ 48 tiles, ≤ 512 Heat
// strips) whose parallelism W/S reaches C/L̂; its nodes scaled by
// ⌊P/W⌋-style floors to a parallel work P = ⌊(C − L̂)·W/(W − S)⌋, a serial prefix node `serial`
// before everything making the span L̂ (the burdened span's sequential part), and one independent
// node `rest` (≤ L̂) taking the floors' remainder so that the work is C. Every node is ≥ 1 ns.
// Returns false with a reason in `why` when C < L̂, no size reaches the parallelism (with tiles > 0:
// that size's W/S is below C/L̂, or it has more than kMaxTemplateNodes nodes), or C is too small
// for the template's nodes.
bool fit_rtws_dag(RtwsBenchmark b, Duration work, Duration span, int heat_steps, DagSpec& out,
                  std::string& why, int tiles = 0);

}  // namespace rtpar::gen
