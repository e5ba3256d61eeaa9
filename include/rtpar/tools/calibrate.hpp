// rtpar/tools/calibrate.hpp — measuring this machine's fork/join cost on a real team, the input
// of an overhead profile (rtpar/tools/overhead.hpp; `rtpar calibrate`).
#pragma once

#include <optional>
#include <vector>

#include "rtpar/team.hpp"
#include "rtpar/thread_config.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar {

// measure_fork_join_cost times `iterations` empty regions on a team built from config (after a
// warm-up). With parked = true the team is parked before every region, so each fork has to wake
// sleeping workers — the cost a job's first region pays. Runs on the calling thread as master.
ForkJoinCost measure_fork_join_cost(const TeamConfig& config, int iterations, bool parked);

// measure_release_latency releases `releases` periodic jobs (after a few untimed ones), each an
// empty region on a team built from config, as the executor does: the calling thread (the master)
// sleeps until the absolute release, tells the team the next release (Team::expect_release, so
// the workers time their own wake-up), runs the region and parks the team. Each sample is release
// instant → region joined: the master's timer wake-up plus the first fork/join. Never spins
// between jobs. The period must be longer than a region (a late job is measured late, not
// skipped).
//
// busy = true measures the other case a real run meets: each member's core is busy with lower-
// priority work at the release (another task's thread on a shared core), so the timer wake-up
// must preempt it, which costs more than waking an idle (polling) core: one SCHED_OTHER spinner
// is pinned beside every member for the measurement (never a real-time spinner: RT throttling).
// Only meaningful when the members run at SCHED_FIFO (else the spinners share the core fairly).
ForkJoinCost measure_release_latency(const TeamConfig& config, int releases, Duration period,
                                     bool busy = false);

// worst_of is an entry whose every statistic (mean, p50, p99, p99.9, max) is the larger of a's and
// b's: the release latency a planner charges must cover both an idle and a busy core.
ForkJoinCost worst_of(const ForkJoinCost& a, const ForkJoinCost& b);

// measure_barrier_cost times `iterations` team barriers (after a few untimed ones), one per
// region on a team built from config: the master (rank 0) naps past the policy's spin before it
// arrives last, so waiting workers have gone to sleep where their policy lets them. Each sample is
// RT-OpenMP §VI-B's barrier latency: last member's departure − last member's arrival. Never
// spins between regions.
ForkJoinCost measure_barrier_cost(const TeamConfig& config, int iterations);

// SupplyConfig is what measure_supply_loss measures: where, how and how long.
struct SupplyConfig {
  std::vector<ThreadConfig> threads;  // one measuring thread per entry (one per CPU, pinned)
  Duration duration{};                // total time; the threads spin for half of it
  Duration burst{50'000'000};         // one spin burst; every window must fit in it
  std::vector<Duration> windows;      // the window lengths w to report, each in (0, burst]
  Duration gap{1'000};                // a clock step longer than this is lost supply
};

// measure_supply_loss measures the CPU supply each thread loses (SupplyLoss, overhead.hpp): every
// thread sleeps until an absolute instant, then wants its CPU for one burst, reading the clock in
// a tight loop; the time from the instant to the wake-up and every step between two reads longer
// than `gap` is lost supply (the virtual CPU descheduled by its host, interrupts, kernel work).
// Bursts alternate with sleeps of the same length, so a SCHED_FIFO thread never holds its core
// for more than half the time (RT throttling and the fair server stay out of it). For each
// window length w, the result is the largest loss in any window of length w inside one burst, over
// every burst and thread (exact: the maximum sits where a window starts at a loss's start or ends
// at a loss's end). Returns one entry per window, ascending; none when no burst fitted in the
// duration (the first starts within two bursts, on a grid shared by the threads). Throws
// std::invalid_argument for no thread, burst ≤ 0 or a window outside (0, burst], and what applying
// a thread's ThreadConfig throws (SCHED_FIFO refused).
std::vector<SupplyLoss> measure_supply_loss(const SupplyConfig& config);

// BudgetCosts is what measure_budget_cost measured (BudgetCost, overhead.hpp).
struct BudgetCosts {
  BudgetCost job;                      // an enforced budget's begin and end around an empty job
  std::optional<BudgetCost> demotion;  // SCHED_OTHER and back; only measured at SCHED_FIFO
};

// measure_budget_cost times `jobs` begin/end pairs of an enforced CPU-time budget
// (platform/cpu_budget.hpp) around an empty job on the calling thread, and — when the calling
// thread runs at SCHED_FIFO — `jobs` demotions to SCHED_OTHER each followed by the restore of its
// policy and priority, the two system calls an overrunning job adds. Nearest-rank percentiles.
// Throws std::invalid_argument for jobs < 1, and what CpuBudget throws (timer refused).
BudgetCosts measure_budget_cost(int jobs);

}  // namespace rtpar
