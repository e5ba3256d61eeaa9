// test_planner_admits_sim.cpp — every planner against the simulator: for random small task sets,
// each plan a planner admits must, simulated over its hyperperiod (rtpar/tools/simulate.hpp), miss
// no deadline, and no simulated response may exceed the bound the plan states. The simulator runs
// the declared worst-case lengths in one legal schedule (src/sim/engine.hpp), so a failure here
// is a concrete counterexample to the planner's analysis (or to the simulator's model); the
// failing set is printed as a task-set file to reproduce it with `rtpar check` / `rtpar simulate`.
#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"
#include "rtpar/tools/simulate.hpp"

using rtpar::Duration;
using rtpar::Plan;
using rtpar::PlannerKind;
using rtpar::TaskSet;
using rtpar::TaskSpec;

namespace {

// kUnit scales the random integers to nanoseconds (1 µs: realistic, and planners that round to
// microseconds or charge small overheads see no degenerate sub-µs numbers).
constexpr std::int64_t kUnit = 1000;

// kPeriods keeps hyperperiods small: lcm = 48 units.
constexpr std::int64_t kPeriods[] = {8, 12, 16, 24, 48};

constexpr PlannerKind kPlanners[] = {PlannerKind::federated, PlannerKind::federated_ws,
                                     PlannerKind::decomposition, PlannerKind::fork_join_rta,
                                     PlannerKind::partitioned};

// Rng draws integers with a fixed, portable recipe (no std distributions, whose output differs
// between standard libraries) so a failing seed reproduces everywhere.
struct Rng {
  std::mt19937_64 engine;
  // in draws uniformly from [lo, hi] (hi − lo is tiny, so modulo bias is irrelevant).
  std::int64_t in(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(engine() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool coin() { return in(0, 1) == 1; }
};

Duration units(std::int64_t n) { return Duration(n * kUnit); }

// random_task draws one task: sequential, (C, L) only, segments or a DAG.
TaskSpec random_task(Rng& rng, int index, int cores, bool partitioned) {
  TaskSpec t;
  t.name = fmt::format("t{}", index);
  const std::int64_t period = kPeriods[rng.in(0, 4)];
  const std::int64_t deadline = rng.coin() ? period : rng.in((period + 1) / 2, period);
  t.period = units(period);
  t.deadline = units(deadline);
  if (rng.in(0, 3) == 0) t.phase = units(rng.in(0, period - 1));
  std::int64_t work = 0;
  std::int64_t span = 0;
  switch (rng.in(0, 3)) {
    case 0:  // sequential
      work = span = rng.in(1, std::max<std::int64_t>(1, deadline / 2));
      break;
    case 1:  // (C, L) only, possibly heavy
      span = rng.in(1, std::max<std::int64_t>(1, deadline / 2));
      work = span + rng.in(0, 2 * deadline);
      break;
    case 2: {  // parallel-synchronous segments
      const std::int64_t n = rng.in(1, 3);
      for (std::int64_t s = 0; s < n; ++s) {
        const std::int64_t strands = rng.in(1, 4);
        const std::int64_t length = rng.in(1, std::max<std::int64_t>(1, deadline / 6));
        t.segments.push_back(rtpar::SegmentSpec{strands, units(length), {}});
        work += strands * length;
        span += length;
      }
      break;
    }
    default: {  // a small DAG: each node after a random subset of the earlier ones
      rtpar::DagSpec dag;
      const int n = static_cast<int>(rng.in(2, 5));
      std::vector<std::int64_t> finish(static_cast<std::size_t>(n), 0);
      for (int k = 0; k < n; ++k) {
        rtpar::DagNode node;
        node.name = fmt::format("n{}", k);
        const std::int64_t length = rng.in(1, std::max<std::int64_t>(1, deadline / 6));
        node.length = units(length);
        std::int64_t start = 0;
        for (int before = 0; before < k; ++before) {
          if (rng.in(0, 2) == 0) {
            node.after.push_back(before);
            start = std::max(start, finish[static_cast<std::size_t>(before)]);
          }
        }
        finish[static_cast<std::size_t>(k)] = start + length;
        span = std::max(span, start + length);
        work += length;
        dag.nodes.push_back(std::move(node));
      }
      t.dag = std::move(dag);
      break;
    }
  }
  t.work = units(work);
  t.span = units(span);
  if (partitioned) {
    for (int c = 0; c < cores; ++c) {
      if (rng.coin()) t.places.push_back(c);
    }
    if (t.places.empty()) t.places.push_back(static_cast<int>(rng.in(0, cores - 1)));
    if (rng.coin()) t.threads = static_cast<int>(rng.in(1, 3));
    if (rng.coin()) t.priority = static_cast<int>(rng.in(1, 20));
  }
  return t;
}

TaskSet random_set(Rng& rng, bool partitioned) {
  TaskSet set;
  set.source = "<random>";
  const int cores = static_cast<int>(rng.in(1, 4));
  for (int c = 0; c < cores; ++c) set.system.cores.push_back(c);
  if (cores % 2 == 0 && rng.coin()) set.system.sockets = 2;
  const int n = static_cast<int>(rng.in(1, 4));
  for (int i = 0; i < n; ++i) set.tasks.push_back(random_task(rng, i, cores, partitioned));
  return set;
}

// heavy_team_set draws a set with one heavy team task h (C > D) on 2..8 cores with one thread per
// core (its places are every core; EDF or a static priority), parallel-synchronous segments or
// (C, L) only, plus 0..4 light sequential tasks pinned to one core each, some with a phase: the
// partitioned planner's team bound (docs/analysis/partitioned.md) must hold for every admitted one.
TaskSet heavy_team_set(Rng& rng) {
  TaskSet set;
  set.source = "<random heavy team>";
  const int cores = static_cast<int>(rng.in(2, 8));
  for (int c = 0; c < cores; ++c) set.system.cores.push_back(c);
  TaskSpec h;
  h.name = "h";
  const std::int64_t period = kPeriods[rng.in(1, 4)];
  const std::int64_t deadline = rng.coin() ? period : rng.in((period + 1) / 2, period);
  h.period = units(period);
  h.deadline = units(deadline);
  std::int64_t work = 0;
  std::int64_t span = 0;
  while (work <= deadline) {
    work = span = 0;
    h.segments.clear();
    if (rng.coin()) {
      const std::int64_t n = rng.in(1, 3);
      for (std::int64_t s = 0; s < n; ++s) {
        const std::int64_t strands = rng.in(1, 2 * cores);
        const std::int64_t length = rng.in(1, std::max<std::int64_t>(1, deadline / (2 * n)));
        h.segments.push_back(rtpar::SegmentSpec{strands, units(length), {}});
        work += strands * length;
        span += length;
      }
    } else {
      span = rng.in(1, std::max<std::int64_t>(1, deadline / 2));
      work = span + rng.in(deadline / 2, cores * deadline);
    }
  }
  h.work = units(work);
  h.span = units(span);
  for (int c = 0; c < cores; ++c) h.places.push_back(c);
  if (rng.coin()) h.priority = static_cast<int>(rng.in(1, 20));
  set.tasks.push_back(std::move(h));
  const int light = static_cast<int>(rng.in(0, 4));
  for (int i = 0; i < light; ++i) {
    TaskSpec t;
    t.name = fmt::format("l{}", i);
    const std::int64_t p = kPeriods[rng.in(0, 4)];
    t.period = t.deadline = units(p);
    if (rng.coin()) t.phase = units(rng.in(0, p - 1));
    t.work = t.span = units(rng.in(1, std::max<std::int64_t>(1, p / 4)));
    t.places = {static_cast<int>(rng.in(0, cores - 1))};
    if (rng.coin()) t.priority = static_cast<int>(rng.in(1, 20));
    set.tasks.push_back(std::move(t));
  }
  return set;
}

// to_toml renders a set as a task-set file, for reproducing a counterexample.
std::string to_toml(const TaskSet& set) {
  auto ns = [](Duration d) { return fmt::format("\"{}ns\"", d.count()); };
  auto ints = [](const std::vector<int>& v) {
    std::string s;
    for (const int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
    return "[" + s + "]";
  };
  std::string out = fmt::format("[system]\ncores = {}\nsockets = {}\n\n", ints(set.system.cores),
                                set.system.sockets);
  for (const TaskSpec& t : set.tasks) {
    out += fmt::format("[[task]]\nname = \"{}\"\nperiod = {}\ndeadline = {}\nphase = {}\n", t.name,
                       ns(t.period), ns(t.deadline), ns(t.phase));
    if (t.segments.empty()) out += fmt::format("work = {}\nspan = {}\n", ns(t.work), ns(t.span));
    if (t.priority) out += fmt::format("priority = {}\n", *t.priority);
    if (!t.places.empty()) out += fmt::format("places = {}\n", ints(t.places));
    if (t.threads > 0) out += fmt::format("threads = {}\n", t.threads);
    for (const rtpar::SegmentSpec& s : t.segments) {
      out += fmt::format("[[task.segment]]\nstrands = {}\nlength = {}\n", s.strands, ns(s.length));
    }
    if (t.dag) {
      for (const rtpar::DagNode& n : t.dag->nodes) {
        std::string after;
        for (const int a : n.after) {
          after += (after.empty() ? "\"" : ", \"") +
                   t.dag->nodes[static_cast<std::size_t>(a)].name + "\"";
        }
        out += fmt::format("[[task.node]]\nname = \"{}\"\nlength = {}\nafter = [{}]\n", n.name,
                           ns(n.length), after);
      }
    }
    out += '\n';
  }
  return out;
}

// Admitted counts the admitted plans per planner (indexed like kPlanners).
using Admitted = std::array<int, std::size(kPlanners)>;

// Tally sums, per planner (indexed like kPlanners), the simulated jobs and the largest ratio of a
// simulated response to its bound, for the tests' messages.
struct Tally {
  std::array<std::int64_t, std::size(kPlanners)> jobs{};
  std::array<double, std::size(kPlanners)> worst_ratio{};
};

// check_admitted_plans plans `set` with every planner (or only `only`) and simulates each admitted
// plan, counting them in `admitted`. Failures are reported with the set and the plan.
void check_admitted_plans(const TaskSet& set, Admitted& admitted,
                          const rtpar::PlanOptions& options = {},
                          std::optional<PlannerKind> only = std::nullopt, Tally* tally = nullptr) {
  for (std::size_t k = 0; k < admitted.size(); ++k) {
    const PlannerKind kind = kPlanners[k];
    if (only && kind != *only) continue;
    Plan plan;
    try {
      plan = rtpar::plan_with(kind, set, options);
    } catch (const std::exception& e) {
      FAIL_CHECK(fmt::format("planner {} threw on a valid set: {}\n{}", rtpar::to_string(kind),
                             e.what(), to_toml(set)));
      continue;
    }
    if (!plan.schedulable) continue;
    ++admitted[k];
    // The profile the planner charged is injected into the simulation (null: none).
    rtpar::SimOptions sim_options;
    sim_options.overhead = options.overhead;
    const rtpar::SimResult sim = rtpar::simulate_plan(plan, set, sim_options);
    bool ok = sim.tasks.size() == set.tasks.size();
    std::string why;
    for (const rtpar::SimTaskResult& t : sim.tasks) {
      if (tally != nullptr) {
        tally->jobs[k] += t.jobs;
        if (t.response_bound_ns && t.max_response_ns && *t.response_bound_ns > 0) {
          tally->worst_ratio[k] =
              std::max(tally->worst_ratio[k], static_cast<double>(*t.max_response_ns) /
                                                  static_cast<double>(*t.response_bound_ns));
        }
      }
      if (!t.simulated || t.jobs == 0) why += fmt::format("task {} not simulated; ", t.name);
      if (t.misses > 0)
        why += fmt::format("task {} missed {} of {} jobs; ", t.name, t.misses, t.jobs);
      if (t.response_bound_ns && t.max_response_ns && *t.max_response_ns > *t.response_bound_ns) {
        why += fmt::format("task {} simulated R = {} > bound {}; ", t.name, *t.max_response_ns,
                           *t.response_bound_ns);
      }
    }
    ok = ok && why.empty();
    if (!ok) {
      FAIL_CHECK(
          fmt::format("planner {} admitted a set the simulation refutes: {}\n--- set\n{}--- "
                      "plan\n{}\n--- simulation\n{}",
                      rtpar::to_string(kind), why, to_toml(set), rtpar::plan_json(plan, set),
                      rtpar::simulation_table(sim)));
    }
  }
}

}  // namespace

TEST_CASE("planners vs simulation: admitted random sets never miss (no places)") {
  Rng rng{std::mt19937_64(20240601)};
  Admitted admitted{};
  for (int i = 0; i < 300; ++i) {
    const TaskSet set = random_set(rng, /*partitioned=*/false);
    rtpar::validate_taskset(set);
    check_admitted_plans(set, admitted);
  }
  // The generator must exercise the property for every planner but partitioned (which needs
  // places), not only produce rejected sets.
  for (std::size_t k = 0; k + 1 < admitted.size(); ++k) {
    INFO("planner ", std::string(rtpar::to_string(kPlanners[k])));
    CHECK(admitted[k] >= 20);
  }
}

TEST_CASE("planners vs simulation: admitted random sets never miss (places, priorities, EDF)") {
  Rng rng{std::mt19937_64(7)};
  Admitted admitted{};
  for (int i = 0; i < 300; ++i) {
    const TaskSet set = random_set(rng, /*partitioned=*/true);
    rtpar::validate_taskset(set);
    check_admitted_plans(set, admitted);
  }
  for (std::size_t k = 0; k < admitted.size(); ++k) {
    INFO("planner ", std::string(rtpar::to_string(kPlanners[k])));
    CHECK(admitted[k] >= 20);
  }
}

TEST_CASE("planners vs simulation: fork-join-rta's worst-fit plans never miss either") {
  // assign = worst-fit (FJOS §VIII-A "Naive"): its own placements, the same RTA.
  Rng rng{std::mt19937_64(20261124)};
  Admitted admitted{};
  rtpar::PlanOptions options;
  options.assign = rtpar::AssignKind::worst_fit;
  for (int i = 0; i < 300; ++i) {
    const TaskSet set = random_set(rng, /*partitioned=*/false);
    rtpar::validate_taskset(set);
    check_admitted_plans(set, admitted, options, PlannerKind::fork_join_rta);
  }
  CHECK(admitted[3] >= 20);  // kPlanners[3] is fork-join-rta
}

TEST_CASE("planners vs simulation: equal priorities on one core block each other") {
  // SCHED_FIFO does not preempt at equal priority: b (C = 6, priority 10) starts at 0, a
  // (C = 2, D = 5, priority 10) is released at 1 and waits until 6, finishing at 8: R = 7 > D.
  // A planner must count equal-priority tasks on a core as interference (or reject the set).
  // Found by the random search above (partitioned flavour, seed 2 of a longer run).
  TaskSet set;
  set.source = "<equal priorities>";
  set.system.cores = {0};
  TaskSpec a;
  a.name = "a";
  a.period = Duration(10'000);
  a.deadline = Duration(5'000);
  a.phase = Duration(1'000);
  a.work = a.span = Duration(2'000);
  a.priority = 10;
  TaskSpec b;
  b.name = "b";
  b.period = b.deadline = Duration(10'000);
  b.work = b.span = Duration(6'000);
  b.priority = 10;
  set.tasks = {a, b};
  rtpar::validate_taskset(set);
  Admitted admitted{};
  check_admitted_plans(set, admitted);
}

TEST_CASE(
    "planners vs simulation: partitioned heavy teams on their own cores never exceed bounds") {
  // Every set has a task with C > D; before the team bound none of them was ever admitted.
  Rng rng{std::mt19937_64(20261124)};
  Admitted admitted{};
  for (int i = 0; i < 400; ++i) {
    const TaskSet set = heavy_team_set(rng);
    rtpar::validate_taskset(set);
    check_admitted_plans(set, admitted, {}, PlannerKind::partitioned);
  }
  MESSAGE("heavy partitioned sets admitted: ", admitted[4], " of 400");
  CHECK(admitted[4] >= 80);  // kPlanners[4] is partitioned (92 with this seed)
}

namespace {

// synthetic_profile is a made-up overhead profile, scaled to these sets' microsecond periods:
// release 0.3 µs (1 thread) / 0.5 µs (2), fork/join 1 µs, barrier 0.8 µs (teams of 1–2, larger
// teams extrapolated), for every wait policy.
rtpar::OverheadProfile synthetic_profile() {
  rtpar::OverheadProfile p;
  p.machine = "synthetic";
  for (const rtpar::WaitKind wait :
       {rtpar::WaitKind::spin, rtpar::WaitKind::block, rtpar::WaitKind::hybrid}) {
    for (const int threads : {1, 2}) {
      auto cost = [&](std::int64_t ns, bool parked) {
        rtpar::ForkJoinCost c;
        c.threads = threads;
        c.wait = wait;
        c.parked = parked;
        c.samples = 1;
        c.p50_ns = c.p99_ns = c.p999_ns = c.max_ns = ns;
        c.mean_ns = static_cast<double>(ns);
        return c;
      };
      p.release.push_back(cost(threads == 1 ? 300 : 500, true));
      p.fork_join.push_back(cost(1000, false));
      p.barrier.push_back(cost(800, false));
    }
  }
  return p;
}

}  // namespace

TEST_CASE("planners vs simulation with injected overheads: admitted plans never exceed bounds") {
  // Issue 16: with a profile every planner's bound must still hold when the simulation executes
  // the overheads the planner charged (rtpar/tools/simulate.hpp SimOptions::overhead).
  const rtpar::OverheadProfile profile = synthetic_profile();
  rtpar::PlanOptions options;
  options.overhead = &profile;
  Admitted admitted{};
  Tally tally;
  for (const bool partitioned : {false, true}) {
    Rng rng{std::mt19937_64(partitioned ? 16 : 1616)};
    for (int i = 0; i < 400; ++i) {
      const TaskSet set = random_set(rng, partitioned);
      rtpar::validate_taskset(set);
      check_admitted_plans(set, admitted, options, std::nullopt, &tally);
    }
  }
  Rng rng{std::mt19937_64(20261125)};
  for (int i = 0; i < 200; ++i) {
    const TaskSet set = heavy_team_set(rng);
    rtpar::validate_taskset(set);
    check_admitted_plans(set, admitted, options, PlannerKind::partitioned, &tally);
  }
  for (std::size_t k = 0; k < admitted.size(); ++k) {
    const std::string name(rtpar::to_string(kPlanners[k]));
    MESSAGE(name, ": ", admitted[k], " admitted, ", tally.jobs[k],
            " jobs simulated, max response/bound ", tally.worst_ratio[k]);
    INFO("planner ", name);
    CHECK(admitted[k] >= 10);
  }
}
