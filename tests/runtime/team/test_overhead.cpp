// test_overhead.cpp — measured fork/join cost (the profile file and its bound: tests/model/
// test_overhead_profile.cpp).
#include <doctest/doctest.h>

#include "rtpar/tools/calibrate.hpp"

namespace {

rtpar::TeamConfig two_members(rtpar::WaitPolicy wait) {
  rtpar::TeamConfig config;
  config.wait = wait;
  for (int r = 0; r < 2; ++r) {
    rtpar::ThreadConfig t;
    t.sched = rtpar::SchedClass::other;
    config.members.push_back(t);
  }
  return config;
}

}  // namespace

TEST_CASE("overhead: measured cost has ordered percentiles and the requested sample count") {
  for (const bool parked : {false, true}) {
    const rtpar::ForkJoinCost c =
        rtpar::measure_fork_join_cost(two_members(rtpar::WaitPolicy::block()), 300, parked);
    CHECK(c.threads == 2);
    CHECK(c.samples == 300);
    CHECK(c.parked == parked);
    CHECK(c.p50_ns > 0);
    CHECK(c.p50_ns <= c.p99_ns);
    CHECK(c.p99_ns <= c.p999_ns);
    CHECK(c.p999_ns <= c.max_ns);
    CHECK(c.mean_ns <= static_cast<double>(c.max_ns));
  }
}

TEST_CASE("overhead: release latency is measured from the release instant, every sample") {
  for (const rtpar::WaitPolicy wait :
       {rtpar::WaitPolicy::block(), rtpar::WaitPolicy::hybrid(rtpar::Duration(20'000))}) {
    const rtpar::ForkJoinCost c =
        rtpar::measure_release_latency(two_members(wait), 50, rtpar::Duration(2'000'000));
    CHECK(c.threads == 2);
    CHECK(c.samples == 50);
    CHECK(c.wait == wait.kind);
    CHECK(c.parked);
    CHECK(c.p50_ns > 0);  // a wake-up takes time: never before the release
    CHECK(c.p50_ns <= c.p99_ns);
    CHECK(c.p99_ns <= c.p999_ns);
    CHECK(c.p999_ns <= c.max_ns);
  }
}
