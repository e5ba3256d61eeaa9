// test_overhead.cpp — measured fork/join cost and the overhead profile the analysis reads.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "rtpar/error.hpp"
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

TEST_CASE("overhead: fork_join_bound takes the worst p99.9 of the nearest measured size") {
  rtpar::OverheadProfile p;
  auto entry = [](int threads, rtpar::WaitKind wait, bool parked, std::int64_t p999) {
    rtpar::ForkJoinCost c;
    c.threads = threads;
    c.wait = wait;
    c.parked = parked;
    c.p999_ns = p999;
    return c;
  };
  p.fork_join = {
      entry(2, rtpar::WaitKind::spin, false, 300), entry(2, rtpar::WaitKind::spin, true, 9000),
      entry(4, rtpar::WaitKind::spin, false, 700), entry(2, rtpar::WaitKind::block, true, 30000)};
  CHECK(p.fork_join_bound(2, rtpar::WaitKind::spin) == 9000);  // parked first fork dominates
  CHECK(p.fork_join_bound(3, rtpar::WaitKind::spin) == 700);   // next larger size measured
  CHECK(p.fork_join_bound(4, rtpar::WaitKind::spin) == 700);
  CHECK(p.fork_join_bound(5, rtpar::WaitKind::spin) == -1);  // nothing large enough
  CHECK(p.fork_join_bound(1, rtpar::WaitKind::block) == 30000);
  CHECK(p.fork_join_bound(2, rtpar::WaitKind::hybrid) == -1);
}

TEST_CASE("overhead: the profile round-trips through its JSON file; bad files are input errors") {
  rtpar::OverheadProfile p;
  p.machine = "test";
  rtpar::ForkJoinCost c;
  c.threads = 2;
  c.wait = rtpar::WaitKind::hybrid;
  c.parked = true;
  c.samples = 10;
  c.mean_ns = 1.5;
  c.p50_ns = 1;
  c.p99_ns = 2;
  c.p999_ns = 3;
  c.max_ns = 4;
  p.fork_join = {c};
  const std::string path = std::string(RTPAR_BINARY_DIR) + "/overhead_profile_test.json";
  {
    std::ofstream f(path);
    f << rtpar::overhead_profile_json(p);
  }
  const rtpar::OverheadProfile back = rtpar::load_overhead_profile(path);
  CHECK(back.machine == "test");
  REQUIRE(back.fork_join.size() == 1);
  CHECK(back.fork_join[0].wait == rtpar::WaitKind::hybrid);
  CHECK(back.fork_join[0].parked);
  CHECK(back.fork_join[0].p999_ns == 3);
  CHECK(back.fork_join[0].max_ns == 4);
  {
    std::ofstream f(path);
    f << R"({"fork_join": [{"threads": 2, "wait": "poll", "p999_ns": 1}]})";
  }
  CHECK_THROWS_AS(rtpar::load_overhead_profile(path), rtpar::InputError);
  {
    std::ofstream f(path);
    f << "{ not json";
  }
  CHECK_THROWS_AS(rtpar::load_overhead_profile(path), rtpar::InputError);
  CHECK_THROWS_AS(rtpar::load_overhead_profile(path + ".missing"), rtpar::InputError);
  std::remove(path.c_str());
}
