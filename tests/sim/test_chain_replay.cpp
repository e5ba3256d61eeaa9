// test_chain_replay.cpp — cause-effect chains in the simulator. replay_chains
// (src/sim/chain_replay.hpp) on a hand-worked schedule: a job reads at its release the newest
// value published by its predecessor (a value published at that very instant counts), publishes
// at its finish, and the origin travels stage by stage; and end to end, a fixed-priority pair on
// one core whose schedule, bounds and ages are worked by hand. Then every planner against the
// simulator on random sets with chains through `latest` channels (two families: this file's
// sequential and (C, L) tasks, and test_planner_locks_sim.cpp's, support/random_task.hpp): for
// each admitted plan, the simulated data age and reaction of every chain stay within the plan's
// bounds (Davare et al. 2007 §3, Dürr et al. 2019 §4–5; src/analysis/bounds/chain_latency.hpp),
// with the counts printed. A failure prints the set as a task-set file for `rtpar check` /
// `rtpar simulate`.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <iterator>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/chain_replay.hpp"
#include "support/random_task.hpp"

using rtpar::Duration;
using rtpar::PlannerKind;
using rtpar::SimJob;
using rtpar::SimTaskResult;
using rtpar::TaskSet;
using rtpar::TaskSpec;
using rtpar::testing::locked_task;
using rtpar::testing::locked_toml;

namespace {

// replay_task is a simulated task with the given (release, finish) jobs.
SimTaskResult replay_task(const char* name, std::vector<SimJob> jobs) {
  SimTaskResult t;
  t.name = name;
  t.simulated = true;
  t.jobs = static_cast<std::int64_t>(jobs.size());
  t.jobs_log = std::move(jobs);
  return t;
}

// replay_set is a set of tasks named `names` (period 10) with one chain over all of them.
TaskSet replay_set(const std::vector<std::string>& names) {
  TaskSet set;
  for (const std::string& n : names) {
    TaskSpec t;
    t.name = n;
    t.period = t.deadline = Duration(10);
    t.work = t.span = Duration(1);
    set.tasks.push_back(t);
  }
  set.chains.push_back(rtpar::ChainSpec{"c", names, std::nullopt, {}});
  return set;
}

}  // namespace

TEST_CASE("replay_chains: reads at release, publishes at finish, origins travel stage by stage") {
  // a publishes at 3 (origin 0), 14 (origin 10), 22 (origin 20).
  const SimTaskResult a = replay_task("a", {{0, 3, false}, {10, 14, false}, {20, 22, false}});
  // b reads at 2 (nothing yet), 12 (origin 0), 22 (origin 20: published at that instant).
  const SimTaskResult b = replay_task("b", {{2, 6, false}, {12, 15, false}, {22, 25, false}});
  rtpar::Plan plan;
  plan.chains.push_back(rtpar::ChainPlan{"c", 15, 15, std::nullopt, std::nullopt});
  {
    const auto m = rtpar::sim::replay_chains(replay_set({"a", "b"}), plan, {a, b});
    REQUIRE(m.size() == 1);
    CHECK(m[0].traced);
    CHECK(m[0].samples == 2);      // b's outputs at 15 (origin 0) and 25 (origin 20)
    CHECK(m[0].age_max_ns == 15);  // 15 − 0
    CHECK(m[0].reaction_max_ns == 15);
    CHECK(m[0].within_bounds());  // bounds 15: equal is within
  }
  // c reads b at 5 (nothing), 15 (origin 0, published at 15), 26 (origin 20).
  const SimTaskResult c = replay_task("c", {{5, 7, false}, {15, 17, false}, {26, 28, false}});
  plan.chains[0].data_age_ns = 16;
  const auto m = rtpar::sim::replay_chains(replay_set({"a", "b", "c"}), plan, {a, b, c});
  REQUIRE(m.size() == 1);
  CHECK(m[0].samples == 2);
  CHECK(m[0].age_max_ns == 17);  // c's output at 17 used data released at 0
  CHECK(m[0].age_p50_ns == 8);   // and at 28 data released at 20
  CHECK_FALSE(m[0].within_bounds());
  // An unfinished job publishes nothing and gives no sample.
  const SimTaskResult b_cut = replay_task("b", {{2, 6, false}, {12, -1, true}});
  const auto cut = rtpar::sim::replay_chains(replay_set({"a", "b"}), plan, {a, b_cut});
  CHECK(cut[0].samples == 0);
}

namespace {

// kChainUnit scales the random integers to nanoseconds (1 µs).
constexpr std::int64_t kChainUnit = 1000;

// kChainPeriods are harmonic-free periods with a small hyperperiod (lcm = 240 units).
constexpr std::int64_t kChainPeriods[] = {8, 12, 15, 20, 30, 48};

// kChainPlanners is every planner, in the order the counts are printed.
constexpr PlannerKind kChainPlanners[] = {PlannerKind::federated, PlannerKind::federated_ws,
                                          PlannerKind::decomposition, PlannerKind::fork_join_rta,
                                          PlannerKind::partitioned};

// chain_task draws a task: sequential (optionally pinned with a priority) or (C, L) parallel.
TaskSpec chain_task(rtpar::Rng& rng, int index, int cores, bool pinned) {
  TaskSpec t;
  t.name = fmt::format("t{}", index);
  const std::int64_t period = kChainPeriods[rng.uniform_int(0, 5)];
  const std::int64_t deadline =
      rng.below(2) == 0 ? period : rng.uniform_int((period + 1) / 2, period);
  t.period = Duration(period * kChainUnit);
  t.deadline = Duration(deadline * kChainUnit);
  if (rng.below(3) == 0) t.phase = Duration(rng.uniform_int(0, period - 1) * kChainUnit);
  std::int64_t span = rng.uniform_int(1, std::max<std::int64_t>(1, deadline / 2));
  std::int64_t work = span;
  if (!pinned && rng.below(2) == 0) work += rng.uniform_int(0, deadline * cores / 2);
  t.work = Duration(work * kChainUnit);
  t.span = Duration(span * kChainUnit);
  if (pinned) {
    t.places = {static_cast<int>(rng.uniform_int(0, cores - 1))};
    t.threads = 1;
    t.priority = static_cast<int>(rng.uniform_int(1, 20));
  }
  return t;
}

// chain_links adds `latest` links t_k → t_{k+1} over the set's tasks and one chain "c"
// through all of them.
void chain_links(TaskSet& set) {
  rtpar::ChainSpec chain;
  chain.name = "c";
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    chain.tasks.push_back(set.tasks[i].name);
    if (i + 1 == set.tasks.size()) break;
    rtpar::ChannelSpec ch;
    ch.name = fmt::format("l{}", i);
    ch.kind = rtpar::ChannelKind::latest;
    ch.size_bytes = 8;
    ch.writer = set.tasks[i].name;
    ch.readers = {set.tasks[i + 1].name};
    set.channels.push_back(std::move(ch));
  }
  set.chains.push_back(std::move(chain));
}

// chain_set draws 2..4 tasks on 1..3 cores and one chain through all of them, each link a
// `latest` channel from one task to the next.
TaskSet chain_set(rtpar::Rng& rng) {
  TaskSet set;
  set.source = "<random chains>";
  const int cores = static_cast<int>(rng.uniform_int(1, 3));
  for (int c = 0; c < cores; ++c) set.system.cores.push_back(c);
  const bool pinned = rng.below(2) == 0;
  const int n = static_cast<int>(rng.uniform_int(2, 4));
  for (int i = 0; i < n; ++i) set.tasks.push_back(chain_task(rng, i, cores, pinned));
  chain_links(set);
  return set;
}

// ChainTally counts per planner (indexed like kChainPlanners) the admitted plans, those with
// chain bounds, their simulated outputs, the chains above a bound, and the largest simulated
// age and reaction as a per-mille of their bounds (how close the bounds are).
struct ChainTally {
  int sets = 0;
  std::array<int, std::size(kChainPlanners)> admitted{};
  std::array<int, std::size(kChainPlanners)> bounded{};
  std::array<std::int64_t, std::size(kChainPlanners)> outputs{};
  std::array<int, std::size(kChainPlanners)> failed{};
  std::array<std::int64_t, std::size(kChainPlanners)> tightest_age{};
  std::array<std::int64_t, std::size(kChainPlanners)> tightest_reaction{};
};

// check_chain_plans plans `set` with every planner and simulates each admitted plan whose chain
// has bounds over [0, horizon_ns), counting in `tally`; a chain above a bound
// (or unmeasured) fails with the set as a task-set file.
void check_chain_plans(const TaskSet& set, std::int64_t horizon_ns, ChainTally& tally) {
  ++tally.sets;
  for (std::size_t k = 0; k < std::size(kChainPlanners); ++k) {
    rtpar::Plan plan;
    try {
      plan = rtpar::plan_with(kChainPlanners[k], set);
    } catch (const std::exception& e) {
      FAIL_CHECK(fmt::format("planner {} threw on a valid set: {}\n{}",
                             rtpar::to_string(kChainPlanners[k]), e.what(), locked_toml(set)));
      continue;
    }
    if (!plan.schedulable) continue;
    ++tally.admitted[k];
    if (plan.chains.empty() || !plan.chains[0].data_age_ns) continue;
    ++tally.bounded[k];
    rtpar::SimOptions options;
    options.horizon_ns = horizon_ns;
    const rtpar::SimResult sim = rtpar::simulate_plan(plan, set, options);
    REQUIRE(sim.chains.size() == 1);
    const rtpar::ChainMeasure& m = sim.chains[0];
    tally.outputs[k] += m.samples;
    if (m.samples > 0 && *m.age_bound_ns > 0 && *m.reaction_bound_ns > 0) {
      tally.tightest_age[k] =
          std::max(tally.tightest_age[k], m.age_max_ns * 1000 / *m.age_bound_ns);
      tally.tightest_reaction[k] =
          std::max(tally.tightest_reaction[k], m.reaction_max_ns * 1000 / *m.reaction_bound_ns);
    }
    if (!m.traced || m.samples == 0 || !m.within_bounds()) {
      ++tally.failed[k];
      FAIL_CHECK(fmt::format(
          "planner {}: chain traced {} with {} outputs, age max {} (bound {}), reaction max "
          "{} (bound {})\n--- set\n{}",
          rtpar::to_string(kChainPlanners[k]), m.traced, m.samples, m.age_max_ns,
          m.age_bound_ns.value_or(-1), m.reaction_max_ns, m.reaction_bound_ns.value_or(-1),
          locked_toml(set)));
    }
  }
}

// report_chain_tally prints the counts, per planner and in total.
void report_chain_tally(const ChainTally& tally) {
  int admitted = 0;
  int bounded = 0;
  int failed = 0;
  std::int64_t outputs = 0;
  for (std::size_t k = 0; k < std::size(kChainPlanners); ++k) {
    admitted += tally.admitted[k];
    bounded += tally.bounded[k];
    failed += tally.failed[k];
    outputs += tally.outputs[k];
    const auto pct = [](std::int64_t pm) { return fmt::format("{}.{}%", pm / 10, pm % 10); };
    MESSAGE(fmt::format(
        "{}: {} admitted, {} chains with bounds, {} simulated outputs, {} above a bound; largest "
        "age {} and reaction {} of their bounds",
        rtpar::to_string(kChainPlanners[k]), tally.admitted[k], tally.bounded[k], tally.outputs[k],
        tally.failed[k], pct(tally.tightest_age[k]), pct(tally.tightest_reaction[k])));
  }
  MESSAGE(fmt::format(
      "{} sets: {} admitted (planner, set) pairs, {} chains with bounds simulated, {} outputs, "
      "{} above a bound",
      tally.sets, admitted, bounded, outputs, failed));
}

}  // namespace

TEST_CASE("planners against the simulator: admitted chains stay within their bounds") {
  rtpar::Rng rng(20261129);
  ChainTally tally;
  // Several hyperperiods (lcm of kChainPeriods = 240 units), so that data crosses every chain
  // many times whatever the phases.
  for (int s = 0; s < 300; ++s) check_chain_plans(chain_set(rng), 4 * 240 * kChainUnit, tally);
  report_chain_tally(tally);
  // The case bites: most planners admit and bound some of these sets.
  CHECK(std::count_if(tally.bounded.begin(), tally.bounded.end(), [](int b) { return b > 0; }) >=
        3);
}

TEST_CASE("planners against the simulator: chains of segment and DAG tasks stay within bounds") {
  // The tasks of test_planner_locks_sim.cpp (support/random_task.hpp: sequential, (C, L),
  // parallel-synchronous segments or a small DAG; pinned or parallel), from a stream of their own,
  // chained in order through `latest` links.
  rtpar::Rng rng(20261130);
  ChainTally tally;
  for (int s = 0; s < 300; ++s) {
    TaskSet set;
    set.source = "<random chains of locks-test tasks>";
    const int cores = static_cast<int>(rng.uniform_int(1, 3));
    for (int c = 0; c < cores; ++c) set.system.cores.push_back(c);
    const bool parallel = rng.below(2) == 0;
    const int n = static_cast<int>(rng.uniform_int(2, 4));
    for (int i = 0; i < n; ++i) {
      const bool par = parallel && rng.below(2) == 0;
      const int core = parallel ? -1 : static_cast<int>(rng.uniform_int(0, cores - 1));
      set.tasks.push_back(locked_task(rng, i, par, core));
    }
    chain_links(set);
    // Eight hyperperiods (lcm of kLockPeriods = 48 units).
    check_chain_plans(set, 8 * 48 * rtpar::testing::kLockUnit, tally);
  }
  report_chain_tally(tally);
  CHECK(std::count_if(tally.bounded.begin(), tally.bounded.end(), [](int b) { return b > 0; }) >=
        3);
}

namespace {

// fixed_priority_pair is two sequential tasks on core 0 (partitioned, fixed priorities, µs):
// a (T 10, C 3, priority 10) and b (T 20, C 4, priority 20, preempts a), one `latest` channel
// from the chain's first task to its second, and the chain `c` over them in that order.
TaskSet fixed_priority_pair(bool a_first) {
  TaskSet set;
  set.source = "<fixed-priority pair>";
  set.system.cores = {0};
  const auto task = [&](const char* name, std::int64_t period, std::int64_t work, int priority) {
    TaskSpec t;
    t.name = name;
    t.period = t.deadline = Duration(period * kChainUnit);
    t.work = t.span = Duration(work * kChainUnit);
    t.places = {0};
    t.threads = 1;
    t.priority = priority;
    set.tasks.push_back(t);
  };
  task("a", 10, 3, 10);
  task("b", 20, 4, 20);
  const std::vector<std::string> order =
      a_first ? std::vector<std::string>{"a", "b"} : std::vector<std::string>{"b", "a"};
  rtpar::ChannelSpec ch;
  ch.name = "link";
  ch.kind = rtpar::ChannelKind::latest;
  ch.size_bytes = 8;
  ch.writer = order[0];
  ch.readers = {order[1]};
  set.channels.push_back(std::move(ch));
  set.chains.push_back(rtpar::ChainSpec{"c", order, std::nullopt, {}});
  return set;
}

}  // namespace

TEST_CASE("simulated chains on one core, fixed priorities: ages worked by hand") {
  // The schedule over [0, 80) µs (b preempts a): b runs 0–4, 20–24, 40–44, 60–64; a runs 4–7,
  // 10–13, 24–27, 30–33, 44–47, 50–53, 64–67, 70–73. R_b = 4, R_a = 3 + 4 = 7.
  constexpr std::int64_t u = kChainUnit;
  rtpar::SimOptions options;
  options.horizon_ns = 80 * u;
  options.record_jobs = true;
  SUBCASE("a → b: b reads a's newest output at its release") {
    const TaskSet set = fixed_priority_pair(true);
    const rtpar::Plan plan = rtpar::plan_with(PlannerKind::partitioned, set);
    REQUIRE(plan.schedulable);
    REQUIRE(plan.chains.size() == 1);
    // Age ≤ (T_a + R_a) + R_b = 17 + 4; reaction ≤ (T_a + R_a) + (T_b + R_b) = 17 + 24.
    CHECK(plan.chains[0].data_age_ns == 21 * u);
    CHECK(plan.chains[0].reaction_ns == 41 * u);
    const rtpar::SimResult sim = rtpar::simulate_plan(plan, set, options);
    REQUIRE(sim.tasks.size() == 2);
    CHECK(sim.tasks[0].jobs_log[2].finish_ns == 27 * u);  // a's job released at 20, preempted
    REQUIRE(sim.chains.size() == 1);
    const rtpar::ChainMeasure& m = sim.chains[0];
    // b at 0 reads nothing; at 20 the value a published at 13 (origin 10) → finish 24, age 14;
    // at 40 the one of 33 (origin 30) → 44; at 60 the one of 53 (origin 50) → 64. Origins 0, 20,
    // 40 and 60 never reach b: a overwrites them before b's next release.
    CHECK(m.traced);
    CHECK(m.samples == 3);
    CHECK(m.origins == 3);
    CHECK(m.age_p50_ns == 14 * u);
    CHECK(m.age_max_ns == 14 * u);
    CHECK(m.reaction_max_ns == 14 * u);
    CHECK(m.within_bounds());
  }
  SUBCASE("b → a: a reads b's newest output, each value twice") {
    const TaskSet set = fixed_priority_pair(false);
    const rtpar::Plan plan = rtpar::plan_with(PlannerKind::partitioned, set);
    REQUIRE(plan.schedulable);
    // Age ≤ (T_b + R_b) + R_a = 24 + 7; reaction ≤ 24 + (T_a + R_a) = 24 + 17.
    CHECK(plan.chains[0].data_age_ns == 31 * u);
    CHECK(plan.chains[0].reaction_ns == 41 * u);
    const rtpar::SimResult sim = rtpar::simulate_plan(plan, set, options);
    REQUIRE(sim.chains.size() == 1);
    const rtpar::ChainMeasure& m = sim.chains[0];
    // b publishes at 4 (origin 0), 24 (20), 44 (40), 64 (60). a at 0 reads nothing; at 10
    // origin 0 → finish 13, age 13; at 20 still origin 0 (b's job of 20 publishes at 24) →
    // finish 27, age 27; at 30 origin 20 → 33, age 13; 40 → 47, age 27; 50 → 53, 13;
    // 60 → 67, 27; 70 → 73, 13. Ages {13 ×4, 27 ×3}: p50 13, max 27; the first output per
    // origin is always the 13.
    CHECK(m.samples == 7);
    CHECK(m.origins == 4);
    CHECK(m.age_p50_ns == 13 * u);
    CHECK(m.age_p99_ns == 27 * u);
    CHECK(m.age_max_ns == 27 * u);
    CHECK(m.reaction_p99_ns == 13 * u);
    CHECK(m.reaction_max_ns == 13 * u);
    CHECK(m.within_bounds());
  }
}
