// steal_omp.cpp — rtpar-bench-steal-gomp and rtpar-bench-steal-libomp: the `rtpar bench steal`
// kernels on OpenMP tasks and worksharing loops.
//
// One source, built twice: g++ -fopenmp (libgomp) and clang++ -fopenmp=libomp (LLVM libomp);
// RTPAR_BENCH_OMP_LIB names the runtime. Each run measures one kernel (docs/bench_steal.md):
//   fib     #pragma omp task for fib(n-1), fib(n-2) inline, #pragma omp taskwait (no cutoff)
//   uts     one #pragma omp task per child, #pragma omp taskwait, per node
//   matmul  #pragma omp parallel for schedule(static) over the rows
//   fft     one #pragma omp task per split of the recursion (steal_fft.hpp), #pragma omp taskwait
//   heat    one #pragma omp parallel per repetition, #pragma omp for schedule(static) per sweep
// fib and uts start from #pragma omp parallel + single, one region per repetition.
#include <omp.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/omp_team.hpp"
#include "common/pinning.hpp"
#include "common/steal_driver.hpp"
#include "common/steal_kernels.hpp"
#include "common/steal_options.hpp"
#include "programs/steal_rtws_omp.hpp"

#ifndef RTPAR_BENCH_OMP_LIB
#error "build with -DRTPAR_BENCH_OMP_LIB=libgomp or -DRTPAR_BENCH_OMP_LIB=libomp"
#endif
// RTPAR_BENCH_STR spells the runtime macro as a string.
#define RTPAR_BENCH_STR2(x) #x
#define RTPAR_BENCH_STR(x) RTPAR_BENCH_STR2(x)

namespace {

using namespace rtpar_bench;

// fib spawns fib(n-1) as a task and computes fib(n-2) itself, at every level.
std::uint64_t fib(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0;
#pragma omp task shared(a)
  a = fib(n - 1);
  const std::uint64_t b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

// kInlineCounts is the child count up to which a node's partial counts live on its stack.
constexpr int kInlineCounts = 16;

// uts counts the subtree of node: one task per child, then taskwait.
std::uint64_t uts(const UtsParams* p, UtsNode node) {
  const int n = uts_children(*p, node);
  if (n == 0) return 1;
  std::uint64_t inline_counts[kInlineCounts];
  std::vector<std::uint64_t> heap_counts;
  if (n > kInlineCounts) heap_counts.resize(static_cast<std::size_t>(n));
  std::uint64_t* counts = n > kInlineCounts ? heap_counts.data() : inline_counts;
  for (int i = 0; i < n; ++i) {
#pragma omp task firstprivate(p, node, counts, i)
    counts[i] = uts(p, uts_child(node, i));
  }
#pragma omp taskwait
  std::uint64_t total = 1;
  for (int i = 0; i < n; ++i) total += counts[i];
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const StealOptions o = parse_steal_options(argc, argv);
  const char* prog = argv[0];
  const std::vector<int> cpus = steal_cpus(o, omp_place_cpus());
  const int nt = o.threads;
  if (static_cast<int>(cpus.size()) < nt) {
    std::fprintf(stderr, "%s: %d threads need %d CPUs, %zu found (pass --cpus)\n", prog, nt, nt,
                 cpus.size());
    return kExitBadArgs;
  }
  omp_set_dynamic(0);  // the runtime must not shrink a team behind our back
  if (std::string why = omp_place_team(nt, cpus, o.fifo, o.priority); !why.empty()) {
    std::fprintf(stderr, "%s: %s\n", prog, why.c_str());
    return kExitEnvironment;
  }

  StealKernels k;
  k.fib = [nt](int n) {
    std::uint64_t r = 0;
#pragma omp parallel num_threads(nt)
#pragma omp single
    r = fib(n);
    return r;
  };
  k.uts = [nt](const UtsParams& p) {
    std::uint64_t r = 0;
    const UtsParams* pp = &p;
#pragma omp parallel num_threads(nt)
#pragma omp single
    r = uts(pp, uts_root(p));
    return r;
  };
  k.matmul = [nt](Matmul& m) {
    const int n = m.n;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int i = 0; i < n; ++i) m.rows(i, i + 1);
  };
  k.heat = [nt](Heat& h) {
    const int n = h.n, steps = h.steps;
#pragma omp parallel num_threads(nt)
    for (int s = 0; s < steps; ++s) {
#pragma omp for schedule(static)
      for (int i = 1; i < n - 1; ++i) h.rows(s, i, i + 1);
    }
  };
  k.fft = [nt](Fft& f) {
    // fork: one half as a task, the other on this thread, then taskwait.
    auto fork = [](auto&& a, auto&& b) {
      auto* pa = &a;
#pragma omp task firstprivate(pa)
      (*pa)();
      b();
#pragma omp taskwait
    };
    Fft* pf = &f;
#pragma omp parallel num_threads(nt)
#pragma omp single
    pf->run(fork);
  };

  add_rtws_omp_kernels(nt, k);  // sync1..3, cholesky, lu (RTWS §IV)

  const std::string runtime = RTPAR_BENCH_STR(RTPAR_BENCH_OMP_LIB);
  StealOutcome out = run_steal_benchmark(o, runtime, k);
  // Back to SCHED_OTHER on every thread before anything else: idle OpenMP workers may spin until
  // the process exits, and must not do so at SCHED_FIFO.
  omp_place_team(nt, cpus, false, 0);
  if (!out.error.empty()) {
    std::fprintf(stderr, "%s: %s\n", prog, out.error.c_str());
    return out.exit_status;
  }
  out.row.emplace_back("library", omp_runtime_library());
  print_steal_row(out.row);
  return 0;
}
