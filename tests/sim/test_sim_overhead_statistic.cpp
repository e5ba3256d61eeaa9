// test_sim_overhead_statistic.cpp — SimOptions::overhead_statistic and seed: the injected overheads
// at p50, p99, p99.9 and max by hand, and `sampled`: draws within the profile's [p50, max], their
// empirical quantiles near the profile's, and results that depend only on (seed, task, job,
// instance) — not on the order of events, nor on the thread that runs the simulation.
#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "model/overhead_statistic.hpp"
#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/overhead_draw.hpp"
#include "support/sim_team_set.hpp"

using rtpar::OverheadStatistic;

namespace {

// cost is one hybrid profile entry with distinct quantiles.
rtpar::ForkJoinCost cost(int threads, std::int64_t p50, std::int64_t p99, std::int64_t p999,
                         std::int64_t max) {
  rtpar::ForkJoinCost c;
  c.threads = threads;
  c.wait = rtpar::WaitKind::hybrid;
  c.p50_ns = p50;
  c.p99_ns = p99;
  c.p999_ns = p999;
  c.max_ns = max;
  return c;
}

// profile: release Λ(1) 100/200/300/400 ns, Λ(2) 200/400/500/800 ns (p50/p99/p99.9/max),
// fork/join F(2) 500/800/1000/2000 ns, barrier β(2) 400/600/800/900 ns.
rtpar::OverheadProfile profile() {
  rtpar::OverheadProfile p;
  p.release = {cost(1, 100, 200, 300, 400), cost(2, 200, 400, 500, 800)};
  p.fork_join = {cost(2, 500, 800, 1000, 2000)};
  p.barrier = {cost(2, 400, 600, 800, 900)};
  return p;
}

// team_set is the shared one-team set (tests/support/sim_team_set.hpp).
rtpar::TaskSet team_set(bool other = false) { return rtpar::testing::sim_team_set(other); }

// run simulates the federated plan of `set` (planned with the profile) with `statistic`.
rtpar::SimResult run(const rtpar::TaskSet& set, OverheadStatistic statistic,
                     std::uint64_t seed = 0) {
  static const rtpar::OverheadProfile p = profile();
  rtpar::PlanOptions options;
  options.overhead = &p;
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, options);
  REQUIRE(plan.schedulable);
  rtpar::SimOptions o;
  o.overhead = &p;
  o.overhead_statistic = statistic;
  o.seed = seed;
  o.record_jobs = true;
  o.horizon_ns = 19'000 * 2000;  // 2000 jobs of t
  return rtpar::simulate_plan(plan, set, o);
}

// responses lists the finish − release of task `i`'s recorded jobs.
std::vector<std::int64_t> responses(const rtpar::SimResult& r, std::size_t i = 0) {
  std::vector<std::int64_t> out;
  for (const rtpar::SimJob& j : r.tasks.at(i).jobs_log) out.push_back(j.finish_ns - j.release_ns);
  return out;
}

}  // namespace

TEST_CASE("overhead statistic: a federated team pays Λ(2) + F(2) at the chosen statistic") {
  // R = 10 µs + Λ(2) + F(2) on the master (Λ up to 2 threads: max(Λ(1), Λ(2)) = Λ(2)).
  const rtpar::TaskSet set = team_set();
  const std::pair<OverheadStatistic, std::int64_t> cases[] = {
      {OverheadStatistic::p50, 10'000 + 200 + 500},
      {OverheadStatistic::p99, 10'000 + 400 + 800},
      {OverheadStatistic::p999, 10'000 + 500 + 1000},
      {OverheadStatistic::max, 10'000 + 800 + 2000},
  };
  for (const auto& [statistic, expected] : cases) {
    CAPTURE(rtpar::to_string(statistic));
    const std::vector<std::int64_t> rs = responses(run(set, statistic));
    REQUIRE(rs.size() == 2000);
    CHECK(std::all_of(rs.begin(), rs.end(), [&](std::int64_t r) { return r == expected; }));
  }
}

TEST_CASE("overhead statistic: sampled responses lie between the p50 and max ones") {
  const std::vector<std::int64_t> rs = responses(run(team_set(), OverheadStatistic::sampled, 7));
  REQUIRE(rs.size() == 2000);
  CHECK(*std::min_element(rs.begin(), rs.end()) >= 10'700);
  CHECK(*std::max_element(rs.begin(), rs.end()) <= 12'800);
  // At least half of the draws sit above the median: not every job takes p50.
  CHECK(std::count_if(rs.begin(), rs.end(), [](std::int64_t r) { return r > 10'700; }) > 500);
}

TEST_CASE("overhead statistic: each sampled job pays exactly its own two draws") {
  // Job j of t (set index 0) draws instance 0 for its release node and 1 for its fork node:
  // R_j = 10 µs + sample(Λ(2), k(seed, 0, j, 0)) + sample(F(2), k(seed, 0, j, 1)).
  const rtpar::sim::OverheadQuantiles release{200, 400, 500, 800};
  const rtpar::sim::OverheadQuantiles fork{500, 800, 1000, 2000};
  const std::vector<std::int64_t> rs = responses(run(team_set(), OverheadStatistic::sampled, 9));
  REQUIRE(rs.size() == 2000);
  for (std::size_t j = 0; j < rs.size(); ++j) {
    CAPTURE(j);
    const std::int64_t expected =
        10'000 + rtpar::sim::sample_at(release, rtpar::sim::draw_index(9, 0, j, 0)) +
        rtpar::sim::sample_at(fork, rtpar::sim::draw_index(9, 0, j, 1));
    REQUIRE(rs[j] == expected);
  }
}

TEST_CASE("overhead statistic: sampled strand plans stay between their p50 and max responses") {
  // decomposition: 2 × 10 µs then 1 × 5 µs on cores {0, 1}; every strand pays Λ(1), the second
  // segment's also β(2). fork-join-rta: one stage of 2 × 10 µs, F(2) + Λ(2) per core.
  static const rtpar::OverheadProfile p = profile();
  rtpar::TaskSet set = team_set();
  set.tasks[0].deadline = set.tasks[0].period = rtpar::Duration(100'000);
  set.tasks[0].segments = {{2, rtpar::Duration(10'000), {}}, {1, rtpar::Duration(5'000), {}}};
  set.tasks[0].work = rtpar::Duration(25'000);
  set.tasks[0].span = rtpar::Duration(15'000);
  rtpar::validate_taskset(set);
  for (const rtpar::PlannerKind planner :
       {rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta}) {
    CAPTURE(rtpar::to_string(planner));
    rtpar::PlanOptions options;
    options.overhead = &p;
    const rtpar::Plan plan = rtpar::plan_with(planner, set, options);
    REQUIRE(plan.schedulable);
    auto sim = [&](OverheadStatistic statistic) {
      rtpar::SimOptions o;
      o.overhead = &p;
      o.overhead_statistic = statistic;
      o.seed = 4;
      o.record_jobs = true;
      o.horizon_ns = 100'000 * 500;
      return responses(rtpar::simulate_plan(plan, set, o));
    };
    const std::int64_t low = sim(OverheadStatistic::p50).at(0);
    const std::int64_t high = sim(OverheadStatistic::max).at(0);
    CHECK(low < high);
    const std::vector<std::int64_t> rs = sim(OverheadStatistic::sampled);
    REQUIRE(rs.size() == 500);
    CHECK(*std::min_element(rs.begin(), rs.end()) >= low);
    CHECK(*std::max_element(rs.begin(), rs.end()) <= high);
    CHECK(*std::max_element(rs.begin(), rs.end()) > low);
  }
}

TEST_CASE("overhead statistic: sample_at interpolates the profile's quantiles exactly") {
  const rtpar::sim::OverheadQuantiles q{100, 1000, 5000, 20000};
  constexpr std::int64_t s = rtpar::sim::kDrawScale;
  CHECK(rtpar::sim::sample_at(q, 0) == 100);
  CHECK(rtpar::sim::sample_at(q, s / 2 - 1) == 100);
  CHECK(rtpar::sim::sample_at(q, s / 2) == 100);
  // u = 0.9: 100 + 900 · 0.4 / 0.49 = 834.69… → 834.
  CHECK(rtpar::sim::sample_at(q, s / 10 * 9) == 834);
  CHECK(rtpar::sim::sample_at(q, s / 100 * 99) == 1000);
  CHECK(rtpar::sim::sample_at(q, s / 1000 * 999) == 5000);
  CHECK(rtpar::sim::sample_at(q, s - 1) == 19999);
}

TEST_CASE(
    "overhead statistic: draws stay in [p50, max] and their quantiles approach the profile's") {
  const rtpar::sim::OverheadQuantiles q{100, 1000, 5000, 20000};
  constexpr int n = 200'000;
  std::vector<std::int64_t> v;
  v.reserve(n);
  for (int j = 0; j < n; ++j) {
    v.push_back(rtpar::sim::sample_at(q, rtpar::sim::draw_index(42, 3, j, 1)));
  }
  std::sort(v.begin(), v.end());
  CHECK(v.front() >= 100);
  CHECK(v.back() <= 20000);
  // Loose bounds (deterministic for this seed; rank error ~ √(n·u(1−u)) draws): the median is
  // the profile's p50 up to the steep part just above it, p99 within 400 ns, p99.9 within 1 µs
  // above and a few ns below.
  const auto at = [&](double u) { return v[static_cast<std::size_t>(u * n)]; };
  CHECK(at(0.5) >= 100);
  CHECK(at(0.5) <= 150);
  CHECK(at(0.99) >= 600);
  CHECK(at(0.99) <= 1400);
  CHECK(at(0.999) >= 4000);
  CHECK(at(0.999) <= 8000);
  // And below the median, nothing under p50: the profile states no lower quantile.
  CHECK(at(0.25) == 100);
}

TEST_CASE(
    "overhead statistic: the same seed gives the same result, and the draw is a pure function") {
  const rtpar::TaskSet set = team_set();
  const std::string a = rtpar::simulation_json(run(set, OverheadStatistic::sampled, 11));
  const std::string b = rtpar::simulation_json(run(set, OverheadStatistic::sampled, 11));
  CHECK(a == b);
  CHECK(responses(run(set, OverheadStatistic::sampled, 11)) !=
        responses(run(set, OverheadStatistic::sampled, 12)));
  CHECK(rtpar::sim::draw_index(1, 2, 3, 4) == rtpar::sim::draw_index(1, 2, 3, 4));
  CHECK(rtpar::sim::draw_index(1, 2, 3, 4) != rtpar::sim::draw_index(1, 2, 3, 5));
}

TEST_CASE("overhead statistic: draws do not depend on event order or on the simulating thread") {
  // With an unrelated task on core 2 the event sequence interleaves differently, but task t
  // (index 0 in both sets) draws the same values, so its every job is identical.
  const std::vector<std::int64_t> alone =
      responses(run(team_set(false), OverheadStatistic::sampled, 5));
  const rtpar::SimResult both = run(team_set(true), OverheadStatistic::sampled, 5);
  CHECK(both.events > 0);
  CHECK(responses(both, 0) == alone);
  // Four simulations at once on four threads: each equals the sequential one.
  const std::string expected = rtpar::simulation_json(both);
  std::vector<std::string> got(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&got, i] {
      got[i] = rtpar::simulation_json(run(team_set(true), OverheadStatistic::sampled, 5));
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string& g : got) CHECK(g == expected);
}

TEST_CASE("overhead statistic: CLI spellings, and a profile max above 1 s is refused for max") {
  for (const OverheadStatistic s :
       {OverheadStatistic::p50, OverheadStatistic::p99, OverheadStatistic::p999,
        OverheadStatistic::max, OverheadStatistic::sampled}) {
    CHECK(rtpar::parse_overhead_statistic(rtpar::to_string(s)) == s);
  }
  CHECK_THROWS_AS(rtpar::parse_overhead_statistic("p42"), rtpar::InputError);
  rtpar::OverheadProfile p = profile();
  p.release[0].max_ns = 2'000'000'000;
  CHECK_THROWS_AS(rtpar::model::profile_at(p, OverheadStatistic::max), rtpar::InputError);
  CHECK_NOTHROW(rtpar::model::profile_at(p, OverheadStatistic::p99));
}
