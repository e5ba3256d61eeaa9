// forkjoin_tbb.cpp — rtpar-bench-tbb: fork/join cost of oneTBB in a task_arena of N threads.
//
// TBB has no team: an empty parallel_for may well run entirely on the calling thread, which
// would time a function call, not a fork/join. So every piece of work rendezvouses: it marks its
// arena slot and waits (bounded by kRendezvousTimeoutNs) until all N slots have arrived, which
// forces the N pieces onto N distinct threads. A region counts as "all threads" only if every
// slot arrived; the share of such regions is reported as all_threads_share (1.0 expected; less
// means TBB kept some of the work on fewer threads and the timeout let it finish).
// Rows: tbb × {region, parallel_for, periodic-region}:
//   region       — task_group: N-1 tasks run() + the master's own piece, then wait()
//   parallel_for — tbb::parallel_for over blocked_range(0, N, grain 1), simple_partitioner
// The master stays inside one arena.execute() for each timed loop, as an OpenMP master stays in
// its team; workers are pinned (slot s on the s-th allowed CPU) and scheduled by an observer.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#include <oneapi/tbb/task_scheduler_observer.h>
#include <oneapi/tbb/version.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "common/clock.hpp"
#include "common/harness.hpp"
#include "common/options.hpp"
#include "common/pingpong.hpp"
#include "common/pinning.hpp"
#include "common/recorder.hpp"
#include "common/tbb_placer.hpp"

namespace {

using namespace rtpar_bench;

// kRendezvousTimeoutNs bounds a piece's wait for the other threads: long enough for a sleeping
// TBB worker to be woken (tens of µs), short enough that a lost participant cannot hang the run.
constexpr std::int64_t kRendezvousTimeoutNs = 1'000'000;

// Rendezvous makes the pieces of one region wait for each other, by arena slot.
class Rendezvous {
 public:
  // Rendezvous waits for n distinct arena slots.
  explicit Rendezvous(int n) : n_(n) {}

  // arrive_and_wait marks the caller's slot and spins until all n slots arrived or the timeout.
  void arrive_and_wait() {
    const int slot = tbb::this_task_arena::current_thread_index();
    const std::uint64_t bit = std::uint64_t{1} << (slot & 63);
    if (std::popcount(mask_.fetch_or(bit, std::memory_order_acq_rel) | bit) >= n_) return;
    const std::int64_t deadline = now_ns() + kRendezvousTimeoutNs;
    for (unsigned spins = 1; std::popcount(mask_.load(std::memory_order_acquire)) < n_; ++spins) {
      cpu_relax();
      if (spins % 64 == 0 && now_ns() > deadline) return;
    }
  }
  // all_arrived says whether n distinct slots took part.
  [[nodiscard]] bool all_arrived() const {
    return std::popcount(mask_.load(std::memory_order_acquire)) >= n_;
  }

 private:
  int n_;
  alignas(64) std::atomic<std::uint64_t> mask_{0};
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const std::vector<int> cpus = measuring_cpus(o, allowed_cpus());
  const int n = o.threads;
  if (static_cast<int>(cpus.size()) < n) {
    std::fprintf(stderr, "rtpar-bench-tbb: %d threads need %d CPUs, %zu found\n", n, n,
                 cpus.size());
    return kExitBadArgs;
  }
  const bool locked = o.fifo && lock_memory();
  Recorder rec(o, locked);
  rec.probe(cpus);
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism,
                                  static_cast<std::size_t>(n));
  tbb::task_arena arena(n, 1);  // one slot reserved for the master
  rtpar_bench::TbbPlacer placer(arena, cpus, o.fifo, o.priority);
  placer.observe(true);

  std::int64_t full = 0;  // regions in which every slot took part
  auto region = [&] {
    Rendezvous rv(n);
    tbb::task_group tg;
    for (int k = 1; k < n; ++k) tg.run([&rv] { rv.arrive_and_wait(); });
    rv.arrive_and_wait();
    tg.wait();
    full += rv.all_arrived();
  };
  auto loop = [&] {
    Rendezvous rv(n);
    tbb::parallel_for(
        tbb::blocked_range<int>(0, n, 1),
        [&rv](const tbb::blocked_range<int>& r) {
          for (int i = r.begin(); i != r.end(); ++i) rv.arrive_and_wait();
        },
        tbb::simple_partitioner());
    full += rv.all_arrived();
  };

  // Bring up the workers (unpinned master, so they inherit nothing) until one region had all.
  arena.execute([&] {
    for (int tries = 0; tries < 1000 && full == 0; ++tries) region();
  });
  if (full == 0 || !placer.error().empty()) {
    std::fprintf(stderr, "rtpar-bench-tbb: %s\n",
                 full == 0 ? "TBB never ran a region on all threads" : placer.error().c_str());
    return kExitEnvironment;
  }
  if (std::string why = place_current_thread(Placement{cpus[0], o.fifo, o.priority});
      !why.empty()) {
    std::fprintf(stderr, "rtpar-bench-tbb: master: %s\n", why.c_str());
    return kExitEnvironment;
  }

  const std::string runtime = o.name.empty() ? "tbb" : o.name;
  const std::string library = std::string("oneTBB ") + TBB_runtime_version();
  // measure times one construct inside the arena; the share counts the timed regions only.
  auto measure = [&](const char* construct, auto& body) {
    std::vector<std::int64_t> samples;
    arena.execute([&] {
      for (std::int64_t i = 0; i < o.warmup_regions(); ++i) body();
      full = 0;
      samples = time_back_to_back(o.iters, 0, body);
    });
    rec.add(runtime, construct, samples)
        .add("all_threads_share", static_cast<double>(full) / static_cast<double>(o.iters))
        .add("library", library);
  };
  if (o.iters > 0) {
    measure("region", region);
    measure("parallel_for", loop);
  }
  if (o.periodic_releases > 0) {
    PeriodicRun run;
    arena.execute([&] {
      full = 0;
      run = time_periodic(o.periodic_releases, o.period_ns, region, [] {});
    });
    // The untimed warm-up releases ran regions too: count them in the denominator.
    const double regions = static_cast<double>(o.periodic_releases + kPeriodicWarmupReleases);
    rec.add_periodic(runtime, "periodic-region", run)
        .add("all_threads_share", static_cast<double>(full) / regions)
        .add("library", library);
  }
  if (!placer.error().empty()) {
    std::fprintf(stderr, "rtpar-bench-tbb: %s\n", placer.error().c_str());
    return kExitEnvironment;
  }
  place_current_thread(Placement{-1, false, 0});
  rec.print();
  return rec.ok() ? 0 : 1;
}
