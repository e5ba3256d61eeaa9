// steal_api.cpp — a heavy task on the work-stealing runtime, written in natural recursive style:
// each job fills an array, sorts it with a parallel merge sort (rtpar::steal::join at every
// split, like P3LS3 Listing 1), and checks it with parallel_reduce. All buffers are allocated
// before the first release; the jobs allocate nothing. Prints the plan, the response times and the
// work and span each job measured online.
//
//   ./steal_api [seconds]     (real-time if permitted, otherwise falls back to best effort)
#include <rtpar/executor.hpp>
#include <rtpar/steal.hpp>
#include <rtpar/system.hpp>
#include <rtpar/tools/report_io.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

namespace steal = rtpar::steal;

// kCutoff is the size below which a range is sorted serially (std::sort does not allocate).
constexpr std::int64_t kCutoff = 4096;

// merge_sort sorts a[lo, hi) using tmp[lo, hi) as scratch: both halves in parallel, then a merge.
void merge_sort(std::uint32_t* a, std::uint32_t* tmp, std::int64_t lo, std::int64_t hi) {
  if (hi - lo <= kCutoff) {
    std::sort(a + lo, a + hi);
    return;
  }
  const std::int64_t mid = lo + (hi - lo) / 2;
  steal::join([=] { merge_sort(a, tmp, lo, mid); }, [=] { merge_sort(a, tmp, mid, hi); });
  std::merge(a + lo, a + mid, a + mid, a + hi, tmp + lo);
  std::copy(tmp + lo, tmp + hi, a + lo);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace std::chrono_literals;
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;

  // "sorter": C = 9 ms of work, L = 2 ms of span, D = T = 6 ms (measured here: work ≈ 8 ms,
  // span ≈ 1.2 ms). C > D, so it is heavy: federated gives it ceil((C − L)/(D − L)) = ceil(7/4) =
  // 2 cores and the greedy bound L + (C − L)/2 = 5.5 ms.
  rtpar::TaskSet set;
  const std::vector<int> cpus = rtpar::online_cpus();
  set.system.cores =
      std::vector<int>(cpus.begin(), cpus.begin() + std::min<std::size_t>(2, cpus.size()));
  rtpar::TaskSpec sorter;
  sorter.name = "sorter";
  sorter.period = 6ms;
  sorter.deadline = 6ms;
  sorter.work = set.system.cores.size() >= 2 ? 9ms : 5ms;
  sorter.span = 2ms;
  sorter.runtime = rtpar::RuntimeKind::steal;
  sorter.steal.max_depth = 64;  // log2(n / kCutoff) levels of join, plus parallel_for/reduce's
  sorter.steal.stack_bytes = 1u << 20;
  set.tasks = {sorter};

  constexpr std::int64_t kN = std::int64_t{1} << 17;
  std::vector<std::uint32_t> data(kN), scratch(kN);  // allocated once, before any release
  std::atomic<long> unsorted_jobs{0};
  rtpar::System system(set);
  system.bind("sorter", [&](rtpar::JobContext& job) {
    job.run_parallel([&] {
      // A new input every job (a hash of the index and the job number).
      steal::parallel_for(0, kN, 2048, [&](std::int64_t i) {
        std::uint64_t z = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull + job.index;
        z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
        data[i] = static_cast<std::uint32_t>(z >> 32);
      });
      merge_sort(data.data(), scratch.data(), 0, kN);
      const std::int64_t inversions = steal::parallel_reduce(
          1, kN, 4096, std::int64_t{0},
          [&](std::int64_t i) -> std::int64_t { return data[i - 1] > data[i] ? 1 : 0; },
          [](std::int64_t x, std::int64_t y) { return x + y; });
      if (inversions != 0) unsorted_jobs.fetch_add(1, std::memory_order_relaxed);
    });
  });

  std::fputs(rtpar::plan_table(system.plan(), system.taskset()).c_str(), stdout);
  rtpar::RunConfig config;
  config.duration =
      std::chrono::duration_cast<rtpar::Duration>(std::chrono::duration<double>(seconds));
  config.lock_memory = false;
  rtpar::RunReport report;
  try {
    report = system.run(config);
  } catch (const rtpar::EnvironmentError& e) {
    std::fprintf(stderr, "no real-time scheduling (%s); running best effort\n", e.what());
    config.best_effort = true;
    report = system.run(config);
  }
  std::fputs(rtpar::stats_table(report).c_str(), stdout);
  const rtpar::TaskStats stats = rtpar::summarize(report.tasks.at(0));
  std::printf("jobs %lld, wrongly sorted %ld, measured work p50 %.3f ms, span p50 %.3f ms\n",
              static_cast<long long>(stats.jobs), unsorted_jobs.load(),
              static_cast<double>(stats.work.p50_ns) / 1e6,
              static_cast<double>(stats.span.p50_ns) / 1e6);
  return stats.jobs > 0 && stats.profiled_jobs == stats.jobs && unsorted_jobs.load() == 0 ? 0 : 1;
}
