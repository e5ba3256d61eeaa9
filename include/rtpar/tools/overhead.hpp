// rtpar/tools/overhead.hpp — measured fork/join costs, for analyses that charge them at every fork
// (FJOS §VI: "the fork/join costs can be added to the computation of aggregate strands").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rtpar/wait_policy.hpp"

namespace rtpar {

// ForkJoinCost is the measured cost of one empty fork/join region on a team of `threads` — or, in
// OverheadProfile::release, the release latency of a periodic job on such a team, or, in
// OverheadProfile::barrier, the latency of one team barrier inside a region.
struct ForkJoinCost {
  int threads = 1;
  WaitKind wait = WaitKind::hybrid;
  bool parked = false;  // measured from parked (sleeping) workers, as at a job's first fork
  std::int64_t samples = 0;
  double mean_ns = 0;
  std::int64_t p50_ns = 0;
  std::int64_t p99_ns = 0;
  std::int64_t p999_ns = 0;
  std::int64_t max_ns = 0;
};

// kMaxProfiledThreads is the largest team size a profile entry may name (Linux's NR_CPUS limit).
inline constexpr int kMaxProfiledThreads = 8192;
// kMaxForkJoinCostNs is the largest cost a profile entry may state, in ns: 1 s per fork. Measured
// costs are microseconds; anything near a second is a broken measurement or a corrupt file, and
// rejecting it keeps every charge (even extrapolated to kMaxProfiledThreads) far from int64 limits.
inline constexpr std::int64_t kMaxForkJoinCostNs = 1'000'000'000;

// SupplyLoss is the CPU supply lost in windows of one length (`rtpar calibrate --supply`): the
// largest time, in any window of `window_ns`, during which a thread that wanted its core for the
// whole window at SCHED_FIFO did not run — the virtual CPU preempted by its host, interrupts, the
// kernel's own work. The planners charge it as a sliding-window server (docs/analysis.md, "Supply
// loss").
struct SupplyLoss {
  std::int64_t window_ns = 0;  // w
  std::int64_t loss_ns = 0;    // L(w), 0 ≤ L(w) ≤ w
  std::int64_t samples = 0;    // measured windows (spin bursts at least w long) it is the max of
};

// kMaxSupplyWindowNs is the longest supply window a profile may state, in ns (10 s).
inline constexpr std::int64_t kMaxSupplyWindowNs = 10'000'000'000;

// BudgetCost is what the CPU-time budget mechanism of `rtpar run` costs a budgeted thread
// (docs/reliability.md, "Budgets"; `rtpar calibrate`), as a distribution over `samples`
// measurements. Charged with the profile by the planners (analysis/bounds/overhead_charge.hpp,
// budget_charge).
struct BudgetCost {
  std::int64_t samples = 0;
  std::int64_t p50_ns = 0;
  std::int64_t p99_ns = 0;
  std::int64_t p999_ns = 0;
  std::int64_t max_ns = 0;
};

// ForkJoinCharge is the cost charged per fork on a team, and how it was obtained.
struct ForkJoinCharge {
  std::int64_t ns = 0;        // the cost to charge per fork (never negative)
  int measured_threads = 0;   // the measured team size it comes from
  bool extrapolated = false;  // true when the team is larger than every measured size
};

// OverheadProfile is a set of measured costs (one per team size and policy), as written by
// `rtpar calibrate` and read by analyses.
struct OverheadProfile {
  std::string machine;  // free text: where it was measured
  std::string source;   // the file it was read from ("" when built in code), quoted in errors
  std::vector<ForkJoinCost> fork_join;
  // release: the release latency of a periodic job on a team of `threads` — from the release
  // instant until every member has run the job's first (empty) region and joined, i.e. the
  // master's timer wake-up plus the first fork/join with the workers' self-timed release
  // (Team::expect_release). `parked` is true (the workers sleep between jobs). Optional.
  std::vector<ForkJoinCost> release;
  // barrier: the latency of one Team::barrier() inside a region on a team of `threads`, as
  // RT-OpenMP §VI-B measures it: from the last member's arrival to the last member's departure
  // (the barrier's wake-up delay; the waiting for slower members is the strands' own time).
  // `parked` is false. Optional (profiles written before it was measured have none).
  std::vector<ForkJoinCost> barrier;
  // supply: the supply lost per window length, ascending windows. Optional: a profile without it
  // charges no supply loss.
  std::vector<SupplyLoss> supply;
  // budget_job: every job of an enforced budget — its begin and end (two reads of the thread's CPU
  // clock, the timer's arm and disarm). budget_demotion: a job that overran — the demotion to
  // SCHED_OTHER and the restore (two sched_setscheduler), measured only at SCHED_FIFO. Optional.
  std::optional<BudgetCost> budget_job;
  std::optional<BudgetCost> budget_demotion;

  // fork_join_bound is the cost an analysis should charge per fork on a team of `threads` with
  // `wait`: the largest measured p99.9 over the entries for that size and policy (parked or not),
  // or of the nearest larger team size measured (a larger team is assumed to cost at least as
  // much). A team larger than every measured size is extrapolated (docs/analysis.md, "Overhead
  // profiles"): with M ≥ 2 the largest measured size and B(M) its bound, a team of n wakes n − 1
  // workers where M wakes M − 1, and
  //   charge = max(⌈(n − 1) / (M − 1)⌉ · B(M),  B(M) + s · (n − M)),
  // s the steepest measured step ⌈(B(b) − B(a)) / (b − a)⌉ between neighbouring measured sizes
  // a < b (0 with one size); saturating at INT64_MAX. std::nullopt when nothing bounds it: no entry
  // for `wait` at all (no other policy's cost bounds it), or a team of n ≥ 2 when only teams of
  // one thread (which wake no worker) were measured. Callers refuse the profile then.
  [[nodiscard]] std::optional<ForkJoinCharge> fork_join_bound(int threads, WaitKind wait) const;
  // release_bound is the release latency to charge a job on a team of `threads` with `wait`, from
  // the `release` entries by the same rule (largest p99.9 of that size or the nearest larger one,
  // extrapolated above the largest); std::nullopt when they cannot bound it.
  [[nodiscard]] std::optional<ForkJoinCharge> release_bound(int threads, WaitKind wait) const;
  // barrier_bound is the latency to charge one barrier on a team of `threads` with `wait`, from
  // the `barrier` entries by the same rule; std::nullopt when they cannot bound it.
  [[nodiscard]] std::optional<ForkJoinCharge> barrier_bound(int threads, WaitKind wait) const;
};

// overhead_profile_json renders a profile as JSON (the file `rtpar calibrate --out` writes).
std::string overhead_profile_json(const OverheadProfile& profile);

// load_overhead_profile reads such a file strictly: every entry (of `fork_join`, and of the
// optional `release` and `barrier`) needs `threads` (1 ..
// kMaxProfiledThreads), `wait` (spin, block or hybrid) and `p999_ns`; `parked`, `samples`,
// `mean_ns`, `p50_ns`, `p99_ns` and `max_ns` are optional; costs are integers in
// 0 .. kMaxForkJoinCostNs (max_ns, which nothing charges, any int64) with p50 ≤ p99 ≤ p99.9 ≤ max;
// no unknown field; at least one entry; two entries for the same (threads, wait, parked) must
// agree. `supply` entries (optional) need `window_ns` (1 .. kMaxSupplyWindowNs, each window once)
// and `loss_ns` (0 .. window_ns); `samples` is optional; they are kept in ascending windows.
// Anything else throws InputError naming the file and the JSON path of the field (e.g.
// "fork_join[3].p999_ns").
OverheadProfile load_overhead_profile(const std::string& path);

}  // namespace rtpar
