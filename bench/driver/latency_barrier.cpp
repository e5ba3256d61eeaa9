// latency_barrier.cpp — see latency_barrier.hpp.
//
// One trial is one job of a periodic task: the master calls team.run(); in the region member r
// busy-waits r·stagger, timestamps (arrive), calls team.barrier(), timestamps again (leave). The
// last arrival is when the barrier semantically opens; the last leave is when the most delayed
// member actually got going again, so last leave − last arrival is the barrier's delay, exactly
// as RT-OpenMP §VI-B defines it. Between jobs the master calls team.park() and sleeps `gap`,
// so every trial crosses the barrier the way the first barrier of a periodic job does: members
// were asleep a moment ago, caches and (on a VM) vCPUs may be cold. No barrier is measured
// back-to-back with another one.
//
// The stagger is counted from each member's own entry into the region, so arrivals are spread by
// the stagger plus the members' different wake-up delays from the park. With a block policy the
// early members are asleep on the futex when the last one arrives (a wake-up per waiter); with
// spin they are busy-waiting (a cache-line transfer); hybrid is either, depending on whether the
// wait exceeded its spin budget.
#include "driver/latency_barrier.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "driver/latency_timing.hpp"
#include "platform/rt_thread.hpp"

namespace rtpar::bench {

namespace {

// kWarmupJobs are run before the measured ones and discarded: the first wake-ups of fresh threads
// take page faults and cold kernel paths that a running periodic task never sees again.
constexpr int kWarmupJobs = 10;

// Stamp is one member's timestamps, a cache line each so that writing them does not disturb the
// barrier's own cache traffic between members.
struct alignas(64) Stamp {
  std::int64_t arrive = 0;
  std::int64_t leave = 0;
};

ThreadConfig member_config(const BarrierLatencyConfig& config, std::size_t rank) {
  ThreadConfig t;
  t.cpu = config.cpus[rank];
  t.sched = config.best_effort ? SchedClass::other : SchedClass::fifo;
  t.priority = config.priority;
  t.name = (rank == 0 ? std::string("lat-master") : "lat-bar-" + std::to_string(rank));
  return t;
}

// run_jobs is the master's loop; it fills result (sized by the caller).
void run_jobs(Team& team, const BarrierLatencyConfig& config, int trials,
              BarrierLatencyResult& result) {
  const std::size_t n = static_cast<std::size_t>(team.size());
  std::vector<Stamp> stamps(n);
  const std::int64_t stagger = config.stagger.count();
  for (int job = -kWarmupJobs; job < trials; ++job) {
    team.run([&](int rank) {
      spin_until(monotonic_now() + rank * stagger);
      Stamp& mine = stamps[static_cast<std::size_t>(rank)];
      mine.arrive = monotonic_now();
      team.barrier();
      mine.leave = monotonic_now();
    });
    // Park before anything else: spinning members stop burning their cores at once.
    team.park();
    if (job >= 0) {
      std::int64_t last_arrive = stamps[0].arrive;
      std::int64_t last_leave = stamps[0].leave;
      for (const Stamp& s : stamps) {
        last_arrive = std::max(last_arrive, s.arrive);
        last_leave = std::max(last_leave, s.leave);
      }
      const auto k = static_cast<std::size_t>(job);
      result.per_trial[k] = last_leave - last_arrive;
      for (std::size_t r = 0; r < n; ++r) result.per_member[r][k] = stamps[r].leave - last_arrive;
    }
    sleep_until(monotonic_now() + config.gap.count());
  }
}

}  // namespace

BarrierLatencyResult measure_barrier_latency(const BarrierLatencyConfig& config) {
  const int trials = std::max(config.trials, 0);
  const std::size_t n = config.cpus.size();
  BarrierLatencyResult result;
  result.per_trial.assign(static_cast<std::size_t>(trials), 0);
  result.per_member.assign(n, std::vector<std::int64_t>(static_cast<std::size_t>(trials), 0));
  if (n == 0) return result;

  TeamConfig team_config;
  for (std::size_t r = 0; r < n; ++r) team_config.members.push_back(member_config(config, r));
  team_config.wait = config.wait;
  // Workers are created here (and throw EnvironmentError if refused); the master is ours.
  const std::unique_ptr<Team> team = make_team(team_config);

  std::exception_ptr failure;
  detail::RtThread master(team_config.members[0], [&] {
    exact_timers();
    try {
      run_jobs(*team, config, trials, result);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  master.join();
  if (failure) std::rethrow_exception(failure);
  return result;
}

}  // namespace rtpar::bench
