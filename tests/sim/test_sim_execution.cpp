// test_sim_execution.cpp — stochastic execution (SimOptions::execution_min_ppm/max_ppm): each
// node's work per job is the declared length times a factor drawn uniformly in [LO, HI]; the
// fixed-statistic overheads folded into a node are not scaled; the draws depend only on (seed,
// task, job, node), never on other tasks or the order of events.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include <doctest/doctest.h>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "support/sim_team_set.hpp"

namespace {

// team_set is the shared one-team set (tests/support/sim_team_set.hpp).
rtpar::TaskSet team_set(bool other = false) { return rtpar::testing::sim_team_set(other); }

// profile: release Λ(1) = Λ(2) = 200 ns and fork/join F(2) = 500 ns at every statistic.
rtpar::OverheadProfile profile() {
  rtpar::OverheadProfile p;
  for (const int threads : {1, 2}) {
    rtpar::ForkJoinCost c;
    c.threads = threads;
    c.wait = rtpar::WaitKind::hybrid;
    c.p50_ns = c.p99_ns = c.p999_ns = c.max_ns = 200;
    p.release.push_back(c);
  }
  rtpar::ForkJoinCost f;
  f.threads = 2;
  f.wait = rtpar::WaitKind::hybrid;
  f.p50_ns = f.p99_ns = f.p999_ns = f.max_ns = 500;
  p.fork_join.push_back(f);
  return p;
}

// responses simulates 1000 jobs of the federated plan of `set` with the execution range
// [lo, hi] ppm and returns task i's responses (finish − release).
std::vector<std::int64_t> responses(const rtpar::TaskSet& set, std::int64_t lo, std::int64_t hi,
                                    std::uint64_t seed, const rtpar::OverheadProfile* p = nullptr,
                                    std::size_t i = 0) {
  rtpar::PlanOptions options;
  options.overhead = p;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, options);
  REQUIRE(plan.schedulable);
  rtpar::SimOptions o;
  o.overhead = p;
  o.seed = seed;
  o.execution_min_ppm = lo;
  o.execution_max_ppm = hi;
  o.record_jobs = true;
  o.horizon_ns = 19'000 * 1000;
  const rtpar::SimResult r = rtpar::simulate_plan(plan, set, o);
  std::vector<std::int64_t> out;
  for (const rtpar::SimJob& j : r.tasks.at(i).jobs_log) out.push_back(j.finish_ns - j.release_ns);
  return out;
}

}  // namespace

TEST_CASE("execution: a fixed factor scales every job's work exactly") {
  const std::vector<std::int64_t> rs = responses(team_set(), 250'000, 250'000, 1);
  REQUIRE(rs.size() == 1000);
  CHECK(std::all_of(rs.begin(), rs.end(), [](std::int64_t r) { return r == 2'500; }));
  // [1, 1] is the declared work.
  const std::vector<std::int64_t> declared =
      responses(team_set(), rtpar::kExecutionPpm, rtpar::kExecutionPpm, 1);
  CHECK(std::all_of(declared.begin(), declared.end(), [](std::int64_t r) { return r == 10'000; }));
}

TEST_CASE("execution: drawn factors stay in the range and spread over it") {
  const std::vector<std::int64_t> rs = responses(team_set(), 500'000, 1'000'000, 3);
  REQUIRE(rs.size() == 1000);
  CHECK(*std::min_element(rs.begin(), rs.end()) >= 5'000);
  CHECK(*std::max_element(rs.begin(), rs.end()) <= 10'000);
  // The response is the later of two strands, each U[5, 10] µs: E = 5 + 5·2/3 ≈ 8.33 µs. Loose
  // bounds over 1000 jobs (the standard error is ≈ 0.04 µs): not a timing assertion.
  const double mean =
      static_cast<double>(std::accumulate(rs.begin(), rs.end(), std::int64_t{0})) / 1000.0;
  CHECK(mean > 7'900.0);
  CHECK(mean < 8'700.0);
  CHECK(std::count_if(rs.begin(), rs.end(), [](std::int64_t r) { return r < 7'000; }) > 50);
}

TEST_CASE("execution: folded overheads are not scaled") {
  // Work scaled to 0 (a node with work keeps 1 ns): what is left is the release and fork/join
  // charged on the master (700 ns) and the strands' 1 ns.
  static const rtpar::OverheadProfile p = profile();
  const std::vector<std::int64_t> rs = responses(team_set(), 0, 0, 5, &p);
  REQUIRE(rs.size() == 1000);
  CHECK(std::all_of(rs.begin(), rs.end(), [](std::int64_t r) { return r == 701; }));
  // 1.5 × the work: 15 µs + 700 ns (still within T = 19 µs, so no job queues).
  const std::vector<std::int64_t> more = responses(team_set(), 1'500'000, 1'500'000, 5, &p);
  CHECK(std::all_of(more.begin(), more.end(), [](std::int64_t r) { return r == 15'700; }));
}

TEST_CASE("execution: draws depend on the seed, task, job and node only") {
  const std::vector<std::int64_t> a = responses(team_set(), 100'000, 1'000'000, 11);
  CHECK(responses(team_set(), 100'000, 1'000'000, 11) == a);
  CHECK(responses(team_set(), 100'000, 1'000'000, 12) != a);
  // Another task on another core changes the order of events, not t's draws.
  CHECK(responses(team_set(true), 100'000, 1'000'000, 11) == a);
}

TEST_CASE("execution: an invalid range is refused, naming --execution") {
  const rtpar::TaskSet set = team_set();
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  for (const auto& [lo, hi] : {std::pair<std::int64_t, std::int64_t>{600'000, 500'000},
                               {-1, 1'000'000},
                               {0, rtpar::kMaxExecutionPpm + 1}}) {
    rtpar::SimOptions o;
    o.execution_min_ppm = lo;
    o.execution_max_ppm = hi;
    CHECK_THROWS_WITH_AS(rtpar::simulate_plan(plan, set, o), doctest::Contains("execution"),
                         rtpar::InputError);
  }
}
