// harness.hpp — the two timing loops every runtime is measured with.
//
// back-to-back: the master runs `region` iters times in a row and times each call with
// CLOCK_MONOTONIC; the workers stay in whatever state the runtime leaves them in between regions
// (spinning, sleeping), which is what the wait policy is about.
//
// periodic: one region per absolute release (clock_nanosleep TIMER_ABSTIME every period), then
// `between_jobs` (rtpar: Team::park(), as the executor does after each job). The time is the
// region alone, from the master's wake-up; response (release → end) feeds the overrun count. An
// RT-throttling stall shows as a region that takes tens of ms and as overruns.
#pragma once

#include <cstdint>
#include <vector>

#include "common/clock.hpp"

namespace rtpar_bench {

// empty_body is the body of every "empty" region and loop: no instruction, but a compiler barrier
// the optimizer must keep. Without it clang's OpenMPOpt deletes a side-effect-free
// `#pragma omp parallel` outright, and we would time two clock reads instead of a fork/join.
inline void empty_body() noexcept { asm volatile("" ::: "memory"); }

// time_back_to_back runs region `warmup` times untimed, then `iters` times timed; returns the
// per-region times in ns, in order.
template <class Region>
std::vector<std::int64_t> time_back_to_back(std::int64_t iters, std::int64_t warmup,
                                            Region&& region) {
  std::vector<std::int64_t> samples(static_cast<std::size_t>(iters));  // touched before timing
  for (std::int64_t i = 0; i < warmup; ++i) region();
  for (std::int64_t i = 0; i < iters; ++i) {
    const std::int64_t t0 = now_ns();
    region();
    samples[static_cast<std::size_t>(i)] = now_ns() - t0;
  }
  return samples;
}

// PeriodicRun is the outcome of the periodic loop.
struct PeriodicRun {
  std::vector<std::int64_t> region_ns;    // per release: the region's duration
  std::vector<std::int64_t> response_ns;  // per release: release instant → region end
  std::int64_t overruns = 0;              // releases whose region ended after the next release
  std::int64_t max_response_ns = 0;       // max over releases of (region end - release)
};

// kPeriodicWarmupReleases are untimed releases first, so the loop starts from the steady state
// (workers asleep after park, caches warm) rather than from the back-to-back phase before it.
inline constexpr std::int64_t kPeriodicWarmupReleases = 5;

// NoReleaseHook is time_periodic's default at_release: nothing to tell the runtime.
struct NoReleaseHook {
  void operator()(std::int64_t /*next_release_ns*/) const noexcept {}
};

// time_periodic releases region every period_ns at absolute times, calls between_jobs after each,
// and times the region from the master's wake-up and from the release instant (the response:
// timer latency + fork + join, what a periodic job is charged). at_release(next) runs at each
// wake-up before the region with the following release (rtpar: Team::expect_release, as the
// executor does at every job start). Releases that come due while a region overran start at once
// (absolute times never slip), so one stall counts every release it delays.
template <class Region, class BetweenJobs, class AtRelease = NoReleaseHook>
PeriodicRun time_periodic(std::int64_t releases, std::int64_t period_ns, Region&& region,
                          BetweenJobs&& between_jobs, AtRelease&& at_release = {}) {
  PeriodicRun run;
  run.region_ns.assign(static_cast<std::size_t>(releases), 0);
  run.response_ns.assign(static_cast<std::size_t>(releases), 0);
  std::int64_t release = now_ns() + period_ns;
  for (std::int64_t r = -kPeriodicWarmupReleases; r < releases; ++r, release += period_ns) {
    sleep_until_ns(release);
    const std::int64_t t0 = now_ns();
    at_release(release + period_ns);
    region();
    const std::int64_t t1 = now_ns();
    between_jobs();
    if (r < 0) continue;
    run.region_ns[static_cast<std::size_t>(r)] = t1 - t0;
    run.response_ns[static_cast<std::size_t>(r)] = t1 - release;
    if (t1 - release > run.max_response_ns) run.max_response_ns = t1 - release;
    if (t1 - release > period_ns) ++run.overruns;
  }
  return run;
}

// time_timer_floor is the timer floor of the periodic variant (like cyclictest): the calling
// thread, placed as the runtimes' masters are, sleeps to `releases` absolute releases every
// period_ns and records each wake-up's lateness (wake-up − release).
inline std::vector<std::int64_t> time_timer_floor(std::int64_t releases, std::int64_t period_ns) {
  std::vector<std::int64_t> late(static_cast<std::size_t>(releases), 0);
  std::int64_t release = now_ns() + period_ns;
  for (std::int64_t r = -kPeriodicWarmupReleases; r < releases; ++r, release += period_ns) {
    sleep_until_ns(release);
    const std::int64_t t = now_ns();
    if (r >= 0) late[static_cast<std::size_t>(r)] = t - release;
  }
  return late;
}

}  // namespace rtpar_bench
