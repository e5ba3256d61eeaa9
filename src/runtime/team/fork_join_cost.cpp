// fork_join_cost.cpp — measure_fork_join_cost: timing empty fork/join regions on a real team,
// for `rtpar calibrate` (rtpar/tools/calibrate.hpp).
#include <time.h>

#include <algorithm>
#include <vector>

#include "rtpar/report.hpp"
#include "rtpar/tools/calibrate.hpp"

namespace rtpar {

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
  std::sort(samples.begin(), samples.end());
  ForkJoinCost cost;
  cost.threads = team->size();
  cost.wait = config.wait.kind;
  cost.parked = parked;
  cost.samples = iterations;
  double sum = 0;
  for (std::int64_t s : samples) sum += static_cast<double>(s);
  cost.mean_ns = samples.empty() ? 0 : sum / static_cast<double>(samples.size());
  cost.p50_ns = percentile(samples, 0.50);
  cost.p99_ns = percentile(samples, 0.99);
  cost.p999_ns = percentile(samples, 0.999);
  cost.max_ns = samples.empty() ? 0 : samples.back();
  return cost;
}

}  // namespace rtpar
