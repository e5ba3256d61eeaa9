// steal_rtpar.cpp — rtpar-bench-steal-rtpar: the `rtpar bench steal` kernels on rtpar's
// work-stealing runtime (include/rtpar/steal.hpp).
//
// Each run measures one kernel (docs/bench_steal.md), every repetition one steal::Pool::run with
// the calling thread as worker 0:
//   fib     the `fib` kernel's recursion (src/kernels/fib_join.hpp) with cut-off 0:
//           steal::join(fib(n-1), fib(n-2)) at every level
//   uts     the `uts` kernel's traversal (src/kernels/uts_walk.hpp): one steal::Scope per node,
//           spawn() per child, sync(), one atomic total per node
//   matmul  steal::parallel_for over the rows, grain 1
//   fft     one steal::Scope per split of the recursion (steal_fft.hpp): spawn a half, run the other
//   heat    steal::parallel_for over blocks of kHeatGrain interior rows, per sweep
// The pool's static budget is sized the way P3LS3 §4.2 prescribes: from one serial measurement
// of the computation (the UTS tree's depth and open spawns are measured by uts_shape), with a
// margin. The row adds the pool's JobProfile of the last repetition and its measured steal cost.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "common/pinning.hpp"
#include "common/steal_driver.hpp"
#include "common/steal_kernels.hpp"
#include "common/steal_options.hpp"
#include "kernels/fib_join.hpp"
#include "kernels/uts_walk.hpp"
#include "programs/steal_rtws_rtpar.hpp"
#include "rtpar/error.hpp"
#include "rtpar/steal.hpp"

namespace {

using namespace rtpar_bench;
namespace steal = rtpar::steal;

// kHeatGrain is the rows per heat chunk (the same grain the TBB program uses).
constexpr int kHeatGrain = 8;

// kBudgetMargin is added to every measured budget figure (depth, frames).
constexpr int kBudgetMargin = 64;

// ceil_log2 is the number of halvings of n down to 1 (parallel_for's join depth for grain 1).
int ceil_log2(std::int64_t n) {
  int d = 0;
  while ((std::int64_t{1} << d) < n) ++d;
  return d;
}

// budget_for sizes the pool's static memory for o.bench from a serial look at the computation.
rtpar::StealConfig budget_for(const StealOptions& o) {
  rtpar::StealConfig b;  // defaults are the floor
  int depth = 0;
  std::uint64_t frames = 0;
  if (o.bench == "fib") {
    depth = o.fib_n;
  } else if (o.bench == "uts") {
    const UtsShape s = uts_shape(o.uts);
    depth = s.max_depth + 1;
    frames = s.max_open_spawns;
  } else if (o.bench == "matmul") {
    depth = ceil_log2(o.matmul_n);
  } else if (o.bench == "fft") {
    depth = ceil_log2(o.fft_n);  // one nested scope per halving
  } else {
    depth = ceil_log2(o.heat_n);
  }
  b.max_depth = std::max(b.max_depth, depth + kBudgetMargin);
  b.frames_per_worker = std::max(b.frames_per_worker, static_cast<int>(frames) + kBudgetMargin);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  const StealOptions o = parse_steal_options(argc, argv);
  const std::vector<int> cpus = steal_cpus(o, allowed_cpus());
  const int nt = o.threads;
  if (static_cast<int>(cpus.size()) < nt) {
    std::fprintf(stderr, "rtpar-bench-steal-rtpar: %d threads need %d CPUs, %zu found\n", nt, nt,
                 cpus.size());
    return kExitBadArgs;
  }
  StealOutcome out;
  std::int64_t steal_cost = 0;
  steal::JobProfile profile;
  try {
    steal::PoolConfig config;
    for (int r = 0; r < nt; ++r) {
      rtpar::ThreadConfig w;
      w.cpu = cpus[static_cast<std::size_t>(r)];
      w.sched = o.fifo ? rtpar::SchedClass::fifo : rtpar::SchedClass::other;
      w.priority = o.priority;
      w.name = "steal-bench-" + std::to_string(r);
      config.workers.push_back(w);
    }
    config.budget = budget_for(o);
    // The workers are created (placed from their first instruction) before the master moves to
    // its CPU and class, so none inherits the master's placement.
    steal::Pool pool(config);
    if (std::string why = place_current_thread(Placement{cpus[0], o.fifo, o.priority});
        !why.empty()) {
      std::fprintf(stderr, "rtpar-bench-steal-rtpar: master: %s\n", why.c_str());
      return kExitEnvironment;
    }

    StealKernels k;
    k.fib = [&pool](int n) {
      std::uint64_t r = 0;
      pool.run([&] { r = rtpar::kernels::fib_join(n, 0); });
      return r;
    };
    k.uts = [&pool](const UtsParams& p) {
      std::uint64_t r = 0;
      pool.run([&] { r = rtpar::kernels::uts_count_parallel(p, uts_root(p)); });
      return r;
    };
    k.matmul = [&pool](Matmul& m) {
      pool.run([&] {
        steal::parallel_for(0, m.n, 1, [&m](std::int64_t i) {
          m.rows(static_cast<int>(i), static_cast<int>(i) + 1);
        });
      });
    };
    k.heat = [&pool](Heat& h) {
      pool.run([&] {
        for (int s = 0; s < h.steps; ++s) {
          // Blocks of kHeatGrain rows (TBB's blocked_range grain), one row call per block.
          const int rows = h.n - 2;
          const int blocks = (rows + kHeatGrain - 1) / kHeatGrain;
          steal::parallel_for(0, blocks, 1, [&h, s, rows](std::int64_t b) {
            const int lo = 1 + static_cast<int>(b) * kHeatGrain;
            h.rows(s, lo, std::min(lo + kHeatGrain, 1 + rows));
          });
        }
      });
    };
    add_rtws_rtpar_kernels(pool, nt, k);  // sync1..3, cholesky, lu (RTWS §IV)
    k.fft = [&pool](Fft& f) {
      // fork: one half spawned, the other run here, then sync (a Scope per split).
      auto fork = [](auto&& a, auto&& b) {
        steal::Scope scope;
        scope.spawn([&a] { a(); });
        b();
        scope.sync();
      };
      pool.run([&] { f.run(fork); });
    };
    out = run_steal_benchmark(o, "rtpar", k);
    profile = pool.last_profile();
    steal_cost = pool.steal_cost_ns();
    place_current_thread(Placement{-1, false, 0});
  } catch (const rtpar::EnvironmentError& e) {
    std::fprintf(stderr, "rtpar-bench-steal-rtpar: %s (%s)\n", e.what(), e.hint().c_str());
    return kExitEnvironment;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rtpar-bench-steal-rtpar: %s\n", e.what());
    return 1;
  }
  if (!out.error.empty()) {
    std::fprintf(stderr, "rtpar-bench-steal-rtpar: %s\n", out.error.c_str());
    return out.exit_status;
  }
  // The profile is that of the last pool.run: the last parallel repetition.
  out.row.emplace_back("work_ns", profile.work_ns);
  out.row.emplace_back("span_ns", profile.span_ns);
  out.row.emplace_back("burdened_span_ns", profile.burdened_span_ns);
  out.row.emplace_back("spawns", static_cast<std::int64_t>(profile.spawns));
  out.row.emplace_back("steals", static_cast<std::int64_t>(profile.steals));
  out.row.emplace_back("steal_cost_ns", steal_cost);
  out.row.emplace_back("library", std::string("librtpar"));
  print_steal_row(out.row);
  return 0;
}
