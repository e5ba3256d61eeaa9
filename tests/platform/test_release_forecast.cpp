// test_release_forecast.cpp — ReleaseForecast: the first fork of the next job is its release plus
// the smallest first-fork offset (from the job's start) of the last 16 jobs; nothing is forecast
// without a release.
#include <doctest/doctest.h>

#include <cstdint>

#include "platform/release_forecast.hpp"

using rtpar::detail::ReleaseForecast;

TEST_CASE("release forecast: learns the sequential prefix, keeps the smallest recent offset") {
  ReleaseForecast f;
  CHECK(f.forecast() == 0);  // nothing expected
  CHECK_FALSE(f.pending());
  // Job 0 starts at 1040 (released at 1000, woken 40 late); the next release is 2000. No
  // history yet: the forecast is the release itself.
  f.expect(2000, 1040);
  REQUIRE(f.pending());
  CHECK(f.forecast() == 2000);
  // Job 0 forks 150 after its start: the master's wake-up latency (40) is not part of the prefix.
  f.first_fork(1190);
  CHECK_FALSE(f.pending());
  CHECK(f.forecast() == 2150);
  // Job 1 starts at 2030 and forks 90 after: the forecast takes the smaller offset.
  f.expect(3000, 2030);
  f.first_fork(2120);
  CHECK(f.forecast() == 3090);
  // Job 2 forks 400 after its start: the minimum stays 90.
  f.expect(4000, 3010);
  f.first_fork(3410);
  CHECK(f.forecast() == 4090);
  // A fork "before" the start (clock granularity) counts as offset 0.
  f.expect(5000, 4050);
  f.first_fork(4049);
  CHECK(f.forecast() == 5000);
  // No release expected any more: no forecast.
  f.expect(0, 5020);
  CHECK(f.forecast() == 0);
}

TEST_CASE("release forecast: offsets older than the last 16 jobs are forgotten") {
  ReleaseForecast f;
  std::int64_t release = 1'000'000;
  // One job with offset 5, then 16 jobs with offset 700: the 5 falls out of the history.
  for (int k = 0; k < 17; ++k) {
    const std::int64_t start = release + 30;
    release += 1'000'000;
    f.expect(release, start);
    REQUIRE(f.pending());
    f.first_fork(start + (k == 0 ? 5 : 700));
    if (k < 16) CHECK(f.forecast() == release + 5);
  }
  CHECK(f.forecast() == release + 700);
  static_assert(ReleaseForecast::kHistory == 16);
}
