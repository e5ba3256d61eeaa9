// test_release_forecast.cpp — ReleaseForecast: the first fork of the next job is its release plus
// the smallest first-fork offset of the last 16 jobs; nothing is forecast without a release.
#include <doctest/doctest.h>

#include <cstdint>

#include "platform/release_forecast.hpp"

using rtpar::detail::ReleaseForecast;

TEST_CASE("release forecast: learns the sequential prefix, keeps the smallest recent offset") {
  ReleaseForecast f;
  CHECK(f.forecast() == 0);  // nothing expected
  CHECK_FALSE(f.pending());
  // Job 0 starts: the next release (job 1's) is 2000; job 0's own release is unknown, so its
  // first fork is not measured.
  f.expect(2000);
  CHECK_FALSE(f.pending());
  CHECK(f.forecast() == 2000);  // no history: the release itself
  // Job 1 starts (release 2000), next release 3000; it forks 150 after its release.
  f.expect(3000);
  REQUIRE(f.pending());
  f.first_fork(2150);
  CHECK_FALSE(f.pending());
  CHECK(f.forecast() == 3150);
  // Job 2 forks 90 after: the forecast takes the smaller offset.
  f.expect(4000);
  f.first_fork(3090);
  CHECK(f.forecast() == 4090);
  // Job 3 forks 400 after: the minimum stays 90.
  f.expect(5000);
  f.first_fork(4400);
  CHECK(f.forecast() == 5090);
  // A fork before its release (the master forked early) counts as offset 0.
  f.expect(6000);
  f.first_fork(4990);
  CHECK(f.forecast() == 6000);
  // No release expected any more: no forecast.
  f.expect(0);
  CHECK(f.forecast() == 0);
}

TEST_CASE("release forecast: offsets older than the last 16 jobs are forgotten") {
  ReleaseForecast f;
  std::int64_t release = 1'000'000;
  f.expect(release);
  // One job with offset 5, then 16 jobs with offset 700: the 5 falls out of the history.
  for (int k = 0; k < 17; ++k) {
    const std::int64_t current = release;
    release += 1'000'000;
    f.expect(release);
    REQUIRE(f.pending());
    f.first_fork(current + (k == 0 ? 5 : 700));
    if (k < 16) CHECK(f.forecast() == release + 5);
  }
  CHECK(f.forecast() == release + 700);
  static_assert(ReleaseForecast::kHistory == 16);
}
