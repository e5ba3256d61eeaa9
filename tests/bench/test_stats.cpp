// test_stats.cpp — bench/common/stats.hpp's summary: the nearest-rank percentiles every bench row
// reports, including p5..p95 that P3LS3 Figs. 4b/5b's box plots are drawn from.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/stats.hpp"

TEST_CASE("bench stats: p5/p25/p50/p75/p95 are nearest-rank percentiles, in any sample order") {
  std::vector<std::int64_t> v;
  for (std::int64_t i = 100; i >= 1; --i) v.push_back(i);  // 100..1: summarize sorts a copy
  const rtpar_bench::Summary s = rtpar_bench::summarize(v);
  CHECK(s.count == 100);
  CHECK(s.min_ns == 1);
  CHECK(s.p5_ns == 5);
  CHECK(s.p25_ns == 25);
  CHECK(s.p50_ns == 50);
  CHECK(s.p75_ns == 75);
  CHECK(s.p95_ns == 95);
  CHECK(s.p99_ns == 99);
  CHECK(s.max_ns == 100);
  CHECK(v.front() == 100);  // the caller's order is kept
  // Ten samples: rank ceil(0.05·10) = 1, ceil(0.95·10) = 10.
  const rtpar_bench::Summary t = rtpar_bench::summarize({7, 3, 9, 1, 5, 2, 8, 4, 10, 6});
  CHECK(t.p5_ns == 1);
  CHECK(t.p25_ns == 3);
  CHECK(t.p75_ns == 8);
  CHECK(t.p95_ns == 10);
  CHECK(rtpar_bench::summarize({}).p95_ns == 0);
}
