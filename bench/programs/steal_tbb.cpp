// steal_tbb.cpp — rtpar-bench-steal-tbb: the `rtpar bench steal` kernels on oneTBB.
//
// Each run measures one kernel (docs/bench_steal.md), every repetition inside one
// task_arena::execute of an arena with --threads slots (one reserved for the calling thread):
//   fib     tbb::task_group: run(fib(n-1)), fib(n-2) inline, wait() (no cutoff)
//   uts     tbb::task_group per node: run() per child, wait()
//   matmul  tbb::parallel_for(blocked_range(0, n, 1)) over the rows (auto_partitioner)
//   fft     tbb::task_group per split of the recursion (steal_fft.hpp): run() a half, wait()
//   heat    tbb::parallel_for(blocked_range(1, n-1, kHeatGrain)) per sweep
// Workers are pinned (slot s on the s-th CPU) and scheduled by an observer (tbb_placer.hpp).
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#include <oneapi/tbb/version.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/pinning.hpp"
#include "common/steal_driver.hpp"
#include "common/steal_kernels.hpp"
#include "common/steal_options.hpp"
#include "common/tbb_placer.hpp"

namespace {

using namespace rtpar_bench;

// kHeatGrain is the rows per heat chunk (the same grain the rtpar program uses).
constexpr int kHeatGrain = 8;

// fib runs fib(n-1) in the task group and fib(n-2) itself, at every level.
std::uint64_t fib(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0;
  tbb::task_group g;
  g.run([&a, n] { a = fib(n - 1); });
  const std::uint64_t b = fib(n - 2);
  g.wait();
  return a + b;
}

// kInlineCounts is the child count up to which a node's partial counts live on its stack.
constexpr int kInlineCounts = 16;

// uts counts the subtree of node: one task per child, then wait().
std::uint64_t uts(const UtsParams& p, const UtsNode& node) {
  const int n = uts_children(p, node);
  if (n == 0) return 1;
  std::uint64_t inline_counts[kInlineCounts];
  std::vector<std::uint64_t> heap_counts;
  if (n > kInlineCounts) heap_counts.resize(static_cast<std::size_t>(n));
  std::uint64_t* counts = n > kInlineCounts ? heap_counts.data() : inline_counts;
  tbb::task_group g;
  for (int i = 0; i < n; ++i) {
    g.run([&p, node, counts, i] { counts[i] = uts(p, uts_child(node, i)); });
  }
  g.wait();
  std::uint64_t total = 1;
  for (int i = 0; i < n; ++i) total += counts[i];
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const StealOptions o = parse_steal_options(argc, argv);
  const std::vector<int> cpus = steal_cpus(o, allowed_cpus());
  const int nt = o.threads;
  if (static_cast<int>(cpus.size()) < nt) {
    std::fprintf(stderr, "rtpar-bench-steal-tbb: %d threads need %d CPUs, %zu found\n", nt, nt,
                 cpus.size());
    return kExitBadArgs;
  }
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(nt));
  tbb::task_arena arena(nt, 1);  // one slot reserved for the calling thread
  TbbPlacer placer(arena, cpus, o.fifo, o.priority);
  placer.observe(true);
  arena.initialize();

  StealKernels k;
  k.fib = [&arena](int n) {
    std::uint64_t r = 0;
    arena.execute([&] { r = fib(n); });
    return r;
  };
  k.uts = [&arena](const UtsParams& p) {
    std::uint64_t r = 0;
    arena.execute([&] { r = uts(p, uts_root(p)); });
    return r;
  };
  k.matmul = [&arena](Matmul& m) {
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<int>(0, m.n, 1),
                        [&m](const tbb::blocked_range<int>& r) { m.rows(r.begin(), r.end()); });
    });
  };
  k.heat = [&arena](Heat& h) {
    arena.execute([&] {
      for (int s = 0; s < h.steps; ++s) {
        tbb::parallel_for(
            tbb::blocked_range<int>(1, h.n - 1, kHeatGrain),
            [&h, s](const tbb::blocked_range<int>& r) { h.rows(s, r.begin(), r.end()); });
      }
    });
  };
  k.fft = [&arena](Fft& f) {
    // fork: one half run() in a task_group, the other here, then wait().
    auto fork = [](auto&& a, auto&& b) {
      tbb::task_group g;
      g.run([&a] { a(); });
      b();
      g.wait();
    };
    arena.execute([&] { f.run(fork); });
  };

  // Bring the workers up (and placed by the observer) before the master goes to its CPU and
  // class: a parallel_for wide enough to wake every worker.
  if (nt > 1) {
    Matmul warm(64);
    k.matmul(warm);
  }
  if (std::string why = placer.error(); !why.empty()) {
    std::fprintf(stderr, "rtpar-bench-steal-tbb: %s\n", why.c_str());
    return kExitEnvironment;
  }
  if (std::string why = place_current_thread(Placement{cpus[0], o.fifo, o.priority});
      !why.empty()) {
    std::fprintf(stderr, "rtpar-bench-steal-tbb: master: %s\n", why.c_str());
    return kExitEnvironment;
  }

  StealOutcome out = run_steal_benchmark(o, "tbb", k);
  place_current_thread(Placement{-1, false, 0});
  if (std::string why = placer.error(); !why.empty()) {
    std::fprintf(stderr, "rtpar-bench-steal-tbb: %s\n", why.c_str());
    return kExitEnvironment;
  }
  if (!out.error.empty()) {
    std::fprintf(stderr, "rtpar-bench-steal-tbb: %s\n", out.error.c_str());
    return out.exit_status;
  }
  out.row.emplace_back("library", std::string("oneTBB ") + TBB_runtime_version());
  print_steal_row(out.row);
  return 0;
}
