// test_period_forecast.cpp — PeriodForecast: the median interval of the last 8 and the earliest
// projection forecast the next event of a periodic sequence, despite a late wake-up; aperiodic
// sequences get no forecast.
#include <doctest/doctest.h>

#include <cstdint>

#include "platform/period_forecast.hpp"

using rtpar::detail::PeriodForecast;

TEST_CASE("period forecast: periodic region starts with wake-up jitter") {
  PeriodForecast f;
  const std::int64_t t0 = 5'000'000'000, period = 1'000'000;
  // Starts at r_k + λ_k, λ cycling 3, 10, 5, 40 µs: no forecast until 8 intervals are known.
  const std::int64_t lambda[] = {3'000, 10'000, 5'000, 40'000};
  std::int64_t got = 0;
  for (int k = 0; k <= 8; ++k) {
    got = f.observe(t0 + k * period + lambda[k % 4]);
    if (k < 8) CHECK(got == 0);
  }
  // Intervals: 1007, 995, 1035, 963 µs, twice; sorted median = (995 + 1007)/2 = 1001 µs.
  CHECK(got == t0 + 8 * period + lambda[0] + 1'001'000);
  // One late wake-up (a 900 µs latency) makes one long and one short interval: still periodic,
  // and the forecast keeps to the release phase (the earliest projection) instead of carrying the
  // late start over: next release + a few µs, not late start + 1 ms.
  got = f.observe(t0 + 9 * period + 900'000);
  CHECK(got != 0);
  CHECK(got >= t0 + 10 * period);
  CHECK(got < t0 + 10 * period + 100'000);
  got = f.observe(t0 + 10 * period + lambda[2]);
  CHECK(got != 0);
}

TEST_CASE("period forecast: aperiodic, back-to-back and stopped sequences") {
  PeriodForecast f;
  // Intervals alternating 1 ms and 3 ms: the median is 2 ms and no interval is within 250 µs.
  std::int64_t t = 1'000'000;
  for (int k = 0; k < 20; ++k) {
    t += k % 2 == 0 ? 1'000'000 : 3'000'000;
    CHECK(f.observe(t) == 0);
  }
  // Back-to-back regions 2 µs apart are periodic too (the window then covers the next one).
  PeriodForecast b;
  std::int64_t got = 0;
  for (int k = 0; k <= 8; ++k) got = b.observe(1'000 + k * 2'000);
  CHECK(got == 1'000 + 8 * 2'000 + 2'000);
  // Equal times (a zero interval) give no forecast rather than "now".
  PeriodForecast z;
  for (int k = 0; k <= 8; ++k) got = z.observe(7'000);
  CHECK(got == 0);
}
