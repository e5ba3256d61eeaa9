// fork_join_cost.cpp — measure_fork_join_cost, measure_release_latency and measure_barrier_cost:
// timing empty fork/join regions on a real team, back to back, from parked workers, and at
// periodic releases, and team barriers inside a region, for `rtpar calibrate`
// (rtpar/tools/calibrate.hpp).
#include <time.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "platform/futex.hpp"
#include "platform/rt_thread.hpp"
#include "rtpar/cpu_relax.hpp"
#include "rtpar/report.hpp"
#include "rtpar/tools/calibrate.hpp"

namespace rtpar {

namespace {

// summarize turns samples (sorted here) into the statistics of a profile entry.
ForkJoinCost summarize(std::vector<std::int64_t>& samples, const TeamConfig& config, int threads,
                       bool parked) {
  std::sort(samples.begin(), samples.end());
  ForkJoinCost cost;
  cost.threads = threads;
  cost.wait = config.wait.kind;
  cost.parked = parked;
  cost.samples = static_cast<std::int64_t>(samples.size());
  double sum = 0;
  for (std::int64_t s : samples) sum += static_cast<double>(s);
  cost.mean_ns = samples.empty() ? 0 : sum / static_cast<double>(samples.size());
  cost.p50_ns = percentile(samples, 0.50);
  cost.p99_ns = percentile(samples, 0.99);
  cost.p999_ns = percentile(samples, 0.999);
  cost.max_ns = samples.empty() ? 0 : samples.back();
  return cost;
}

}  // namespace

ForkJoinCost measure_fork_join_cost(const TeamConfig& config, int iterations, bool parked) {
  auto team = make_team(config);
  const int warmup = std::min(iterations, 1000);
  for (int i = 0; i < warmup; ++i) team->run([](int) {});
  std::vector<std::int64_t> samples(static_cast<std::size_t>(iterations));
  for (auto& s : samples) {
    if (parked) {
      team->park();
      // Sleep (never spin: the master may run at SCHED_FIFO) long enough for spinning workers
      // to notice the park and fall asleep, so that the fork really has to wake them.
      const std::int64_t nap = config.wait.spin_ns.count() + 50'000;
      const timespec ts{0, static_cast<long>(nap)};
      nanosleep(&ts, nullptr);
    }
    const std::int64_t start = monotonic_now();
    team->run([](int) {});
    s = monotonic_now() - start;
  }
  team->park();
  return summarize(samples, config, team->size(), parked);
}

ForkJoinCost measure_release_latency(const TeamConfig& config, int releases, Duration period,
                                     bool busy) {
  auto team = make_team(config);
  // The busy case: a SCHED_OTHER spinner on each member's core for the whole measurement. Stop
  // protocol: the master's release store of `stop` after the last sample, the spinners' relaxed
  // loads (nothing is published through it; join() orders the rest).
  std::atomic<bool> stop{false};
  std::vector<std::thread> spinners;
  if (busy) {
    for (const ThreadConfig& member : config.members) {
      spinners.emplace_back([&stop, cpu = member.cpu] {
        ThreadConfig other;
        other.cpu = cpu;
        other.sched = SchedClass::other;
        detail::apply_to_current_thread(other);
        while (!stop.load(std::memory_order_relaxed)) cpu_relax();
      });
    }
  }
  constexpr int kWarmup = 5;  // untimed: the forecast learns the first-fork offset
  std::vector<std::int64_t> samples(static_cast<std::size_t>(releases));
  std::int64_t release = monotonic_now() + period.count();
  for (int k = -kWarmup; k < releases; ++k, release += period.count()) {
    detail::sleep_until(release);
    team->expect_release(release + period.count());
    team->run([](int) {});
    const std::int64_t joined = monotonic_now();
    team->park();
    if (k >= 0) samples[static_cast<std::size_t>(k)] = joined - release;
  }
  team->expect_release(0);
  stop.store(true, std::memory_order_release);
  for (std::thread& t : spinners) t.join();
  return summarize(samples, config, team->size(), true);
}

ForkJoinCost worst_of(const ForkJoinCost& a, const ForkJoinCost& b) {
  ForkJoinCost w = a;
  w.mean_ns = std::max(a.mean_ns, b.mean_ns);
  w.p50_ns = std::max(a.p50_ns, b.p50_ns);
  w.p99_ns = std::max(a.p99_ns, b.p99_ns);
  w.p999_ns = std::max(a.p999_ns, b.p999_ns);
  w.max_ns = std::max(a.max_ns, b.max_ns);
  w.samples = a.samples + b.samples;
  return w;
}

namespace {

// Stamp is one member's timestamps around a barrier, on a cache line of its own so that the
// members' writes do not disturb each other's waiting.
struct alignas(64) Stamp {
  std::int64_t before = 0;
  std::int64_t after = 0;
};

}  // namespace

ForkJoinCost measure_barrier_cost(const TeamConfig& config, int iterations) {
  auto team = make_team(config);
  std::vector<Stamp> stamps(static_cast<std::size_t>(team->size()));
  // The master arrives last, after a nap long enough for the workers' policy to give up spinning
  // (block and hybrid waiters are then asleep): the barrier must wake them, the slow case.
  // A nap, never a spin: the master may run at SCHED_FIFO.
  const std::int64_t nap = config.wait.spin_ns.count() + 50'000;
  std::vector<std::int64_t> samples(static_cast<std::size_t>(iterations));
  const int warmup = std::min(iterations, 100);
  for (int k = -warmup; k < iterations; ++k) {
    team->run([&](int rank) {
      if (rank == 0) {
        const timespec ts{0, static_cast<long>(nap)};
        nanosleep(&ts, nullptr);
      }
      Stamp& mine = stamps[static_cast<std::size_t>(rank)];
      mine.before = monotonic_now();
      team->barrier();
      mine.after = monotonic_now();
    });
    // RT-OpenMP §VI-B: the last arrival is when every member may proceed; the last departure
    // is when the most delayed member did. Their difference is the barrier's latency.
    std::int64_t last_in = 0, last_out = 0;
    for (const Stamp& s : stamps) {
      last_in = std::max(last_in, s.before);
      last_out = std::max(last_out, s.after);
    }
    if (k >= 0)
      samples[static_cast<std::size_t>(k)] = std::max<std::int64_t>(0, last_out - last_in);
  }
  team->park();
  return summarize(samples, config, team->size(), false);
}

}  // namespace rtpar
