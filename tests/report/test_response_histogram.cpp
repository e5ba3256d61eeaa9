// test_response_histogram.cpp — the log-spaced response histogram (src/report/
// response_histogram.hpp) on hand-made runs: the 1-2-5 edges, buckets from the first filled to the
// last (gaps kept), the summary's one row per task, and decades when 1-2-5 would be too wide.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "report/response_histogram.hpp"
#include "rtpar/report.hpp"

namespace {

// run_of is a task `name` whose jobs have the given responses (released at 0).
rtpar::TaskRun run_of(const std::string& name, std::initializer_list<std::int64_t> responses) {
  rtpar::TaskRun run;
  run.name = name;
  std::int64_t i = 0;
  for (std::int64_t r : responses) run.records.push_back({i++, 0, 0, r});
  return run;
}

}  // namespace

TEST_CASE("bucket_edges: the 1-2-5 series from 1 us to the first edge above the maximum") {
  CHECK(rtpar::report::bucket_edges(0) == std::vector<std::int64_t>{1000});
  CHECK(rtpar::report::bucket_edges(4999) == std::vector<std::int64_t>{1000, 2000, 5000});
  CHECK(rtpar::report::bucket_edges(5000) == std::vector<std::int64_t>{1000, 2000, 5000, 10000});
  CHECK(rtpar::report::bucket_edges(150'000, 1) ==
        std::vector<std::int64_t>{1000, 10'000, 100'000, 1'000'000});
  // No overflow at the top of int64.
  CHECK(rtpar::report::bucket_edges(INT64_MAX).size() > 40);
}

TEST_CASE("response_histogram: from the first filled bucket to the last, gaps kept") {
  const auto h = rtpar::report::response_histogram(run_of("t", {1500, 1600, 60'000, 3000}));
  REQUIRE(h.size() == 6);  // [1,2) [2,5) [5,10) [10,20) [20,50) [50,100) µs
  CHECK(h[0].lo_ns == 1000);
  CHECK(h[0].hi_ns == 2000);
  CHECK(h[0].jobs == 2);
  CHECK(h[1].jobs == 1);
  CHECK(h[2].jobs == 0);
  CHECK(h[5].lo_ns == 50'000);
  CHECK(h[5].jobs == 1);
  CHECK(rtpar::report::response_histogram(run_of("none", {})).empty());
  // The edge itself belongs to the bucket above it.
  CHECK(rtpar::report::response_histogram(run_of("e", {2000}))[0].lo_ns == 2000);
  const auto j = rtpar::report::histogram_json(run_of("t", {1500}));
  CHECK(j.dump() == R"({"buckets":[{"lo_ns":1000,"hi_ns":2000,"jobs":1}]})");
}

TEST_CASE("histogram_table: one row per task, columns spanning every task's buckets") {
  rtpar::RunReport r;
  r.tasks.push_back(run_of("fast", {1500, 1600}));
  r.tasks.push_back(run_of("slow", {12'000}));
  r.tasks.push_back(run_of("idle", {}));
  const std::string t = rtpar::report::histogram_table(r);
  INFO(t);
  CHECK(t.find("1-2-5 buckets") != std::string::npos);
  CHECK(t.find("<2us") != std::string::npos);
  CHECK(t.find("<20us") != std::string::npos);
  CHECK(t.find("<50us") == std::string::npos);       // nothing above 20 µs
  CHECK(t.find("idle") == std::string::npos);        // no jobs: no row
  CHECK(std::count(t.begin(), t.end(), '\n') == 5);  // blank line, title, header, two rows
  // 1 µs to 1 s: more than 12 buckets of 1-2-5, so decades.
  r.tasks.push_back(run_of("long", {900'000'000}));
  const std::string d = rtpar::report::histogram_table(r);
  CHECK(d.find("decade buckets") != std::string::npos);
  CHECK(d.find("<1s") != std::string::npos);
  CHECK(rtpar::report::histogram_table(rtpar::RunReport{}).empty());
}
