// test_planner_locks_sim.cpp — every planner against the simulator on task sets with `lock`
// channels: each plan a planner admits must, simulated with every critical section at its full
// `hold` (src/sim/lock_sections.hpp: the immediate priority ceiling for local locks, MSRP's
// non-preemptive FIFO spinning for global ones), miss no deadline, and no simulated response may
// exceed the bound the plan states. Like test_planner_admits_sim.cpp, a failure is a concrete
// counterexample to a planner's blocking charge (or to the simulator's model), printed as a
// task-set file for `rtpar check` / `rtpar simulate`. Each case prints how many sets every planner
// admitted; today only partitioned admits (local locks), the others refuse every lock.
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
#include "rtpar/tools/report_io.hpp"
#include "rtpar/tools/simulate.hpp"
#include "support/random_task.hpp"

using rtpar::Duration;
using rtpar::PlannerKind;
using rtpar::TaskSet;
using rtpar::TaskSpec;
using rtpar::testing::kLockPeriods;
using rtpar::testing::lock_units;
using rtpar::testing::locked_task;
using rtpar::testing::locked_toml;

namespace {

// kLockPlanners is every planner, in the order the counts are printed.
constexpr PlannerKind kLockPlanners[] = {PlannerKind::federated, PlannerKind::federated_ws,
                                         PlannerKind::decomposition, PlannerKind::fork_join_rta,
                                         PlannerKind::partitioned};

// LockTally counts per planner (indexed like kLockPlanners) the admitted sets, their simulated
// jobs and lock sections, the longest simulated spin, and the failures.
struct LockTally {
  std::array<int, std::size(kLockPlanners)> admitted{};
  std::array<std::int64_t, std::size(kLockPlanners)> jobs{};
  std::array<std::int64_t, std::size(kLockPlanners)> sections{};
  std::array<std::int64_t, std::size(kLockPlanners)> max_wait{};
  std::array<int, std::size(kLockPlanners)> failed{};
};

// add_locks adds 1..2 lock channels of 2..3 users each (1..2 accesses, hold 1..10% of the
// smallest user's C, at least 100 ns, always below every user's deadline).
void add_locks(rtpar::Rng& rng, TaskSet& set) {
  const int n = static_cast<int>(set.tasks.size());
  if (n < 2) return;
  const int locks = static_cast<int>(rng.uniform_int(1, 2));
  for (int l = 0; l < locks; ++l) {
    std::vector<int> users(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) users[static_cast<std::size_t>(i)] = i;
    for (int k = n; k > 1; --k) {
      std::swap(users[static_cast<std::size_t>(k - 1)],
                users[rng.below(static_cast<std::uint64_t>(k))]);
    }
    users.resize(
        static_cast<std::size_t>(std::min<int>(n, static_cast<int>(rng.uniform_int(2, 3)))));
    rtpar::ChannelSpec ch;
    ch.name = fmt::format("m{}", l);
    ch.kind = rtpar::ChannelKind::lock;
    ch.size_bytes = 8;
    ch.accesses = static_cast<int>(rng.uniform_int(1, 2));
    std::int64_t min_c = set.tasks[static_cast<std::size_t>(users[0])].work.count();
    for (const int u : users) {
      min_c = std::min(min_c, set.tasks[static_cast<std::size_t>(u)].work.count());
    }
    const std::int64_t percent = rng.uniform_int(1, 10);
    ch.hold = Duration(std::max<std::int64_t>(100, min_c * percent / 100));
    ch.writer = set.tasks[static_cast<std::size_t>(users[0])].name;
    for (std::size_t k = 1; k < users.size(); ++k) {
      ch.readers.push_back(set.tasks[static_cast<std::size_t>(users[k])].name);
    }
    set.channels.push_back(std::move(ch));
  }
}

// locked_set draws a set on 1..3 cores: `parallel` mixes parallel tasks in (no placement);
// otherwise sequential tasks, each pinned with one thread to a core — all to core 0 when
// `same_core` (so that every lock is local and partitioned can admit it).
TaskSet locked_set(rtpar::Rng& rng, bool parallel, bool same_core) {
  TaskSet set;
  set.source = "<random locks>";
  const int cores = static_cast<int>(rng.uniform_int(1, 3));
  for (int c = 0; c < cores; ++c) set.system.cores.push_back(c);
  const int n = static_cast<int>(rng.uniform_int(2, 4));
  for (int i = 0; i < n; ++i) {
    const bool par = parallel && rng.below(2) == 0;
    const int core = parallel    ? -1
                     : same_core ? 0
                                 : static_cast<int>(rng.uniform_int(0, cores - 1));
    set.tasks.push_back(locked_task(rng, i, par, core));
  }
  add_locks(rng, set);
  return set;
}

// check_locked_plans plans `set` with every planner and simulates each admitted plan with full
// sections, counting in `tally`; failures are reported with the set, the plan and the simulation.
void check_locked_plans(const TaskSet& set, LockTally& tally) {
  for (std::size_t k = 0; k < std::size(kLockPlanners); ++k) {
    const PlannerKind kind = kLockPlanners[k];
    rtpar::Plan plan;
    try {
      plan = rtpar::plan_with(kind, set);
    } catch (const std::exception& e) {
      FAIL_CHECK(fmt::format("planner {} threw on a valid set: {}\n{}", rtpar::to_string(kind),
                             e.what(), locked_toml(set)));
      continue;
    }
    if (!plan.schedulable) continue;
    ++tally.admitted[k];
    rtpar::SimResult sim;
    try {
      sim = rtpar::simulate_plan(plan, set, rtpar::SimOptions{});
    } catch (const std::exception& e) {  // e.g. the ceiling's invariant (lock_sections.hpp)
      ++tally.failed[k];
      FAIL_CHECK(fmt::format("planner {}: the simulation threw: {}\n--- set\n{}",
                             rtpar::to_string(kind), e.what(), locked_toml(set)));
      continue;
    }
    std::string why;
    for (const rtpar::SimTaskResult& t : sim.tasks) {
      tally.jobs[k] += t.jobs;
      if (!t.simulated || t.jobs == 0) why += fmt::format("task {} not simulated; ", t.name);
      if (t.misses > 0) why += fmt::format("task {} missed {} of {}; ", t.name, t.misses, t.jobs);
      if (t.response_bound_ns && t.max_response_ns && *t.max_response_ns > *t.response_bound_ns) {
        why += fmt::format("task {} simulated R = {} > bound {}; ", t.name, *t.max_response_ns,
                           *t.response_bound_ns);
      }
    }
    for (const rtpar::SimLockResult& l : sim.locks) {
      tally.sections[k] += l.sections;
      tally.max_wait[k] = std::max(tally.max_wait[k], l.max_wait_ns);
      if (l.sections == 0) why += fmt::format("lock {} never taken; ", l.name);
    }
    if (!why.empty()) {
      ++tally.failed[k];
      FAIL_CHECK(fmt::format(
          "planner {} admitted a set with locks the simulation refutes: {}\n--- set\n{}--- "
          "plan\n{}\n--- simulation\n{}",
          rtpar::to_string(kind), why, locked_toml(set), rtpar::plan_json(plan, set),
          rtpar::simulation_table(sim)));
    }
  }
}

// report_tally prints the per-planner counts of one case.
void report_tally(const char* what, int sets, const LockTally& tally) {
  for (std::size_t k = 0; k < std::size(kLockPlanners); ++k) {
    MESSAGE(std::string(what), ": ", std::string(rtpar::to_string(kLockPlanners[k])), " admitted ",
            tally.admitted[k], " of ", sets, ", ", tally.jobs[k], " jobs and ", tally.sections[k],
            " sections simulated, max spin ", tally.max_wait[k], " ns, ", tally.failed[k],
            " refuted");
  }
}

}  // namespace

TEST_CASE("planners vs simulation with locks: sequential tasks on one core") {
  rtpar::Rng rng(20261128);
  LockTally tally;
  constexpr int kSets = 300;
  for (int i = 0; i < kSets; ++i) {
    const TaskSet set = locked_set(rng, /*parallel=*/false, /*same_core=*/true);
    rtpar::validate_taskset(set);
    check_locked_plans(set, tally);
  }
  report_tally("one core", kSets, tally);
  CHECK(tally.admitted[4] >= 50);  // kLockPlanners[4] is partitioned: local locks
}

TEST_CASE("planners vs simulation with locks: sequential tasks spread over 1-3 cores") {
  rtpar::Rng rng(1128);
  LockTally tally;
  constexpr int kSets = 300;
  for (int i = 0; i < kSets; ++i) {
    const TaskSet set = locked_set(rng, /*parallel=*/false, /*same_core=*/false);
    rtpar::validate_taskset(set);
    check_locked_plans(set, tally);
  }
  report_tally("spread", kSets, tally);
  // partitioned charges local locks (ceiling) and global ones (MSRP); federated charges MSRP
  // before placement. Both must admit a good share, or the soundness check above checks nothing.
  CHECK(tally.admitted[4] >= 50);
  CHECK(tally.admitted[0] >= 50);  // kLockPlanners[0] is federated
}

TEST_CASE("planners vs simulation with locks: parallel tasks") {
  rtpar::Rng rng(281128);
  LockTally tally;
  constexpr int kSets = 300;
  for (int i = 0; i < kSets; ++i) {
    const TaskSet set = locked_set(rng, /*parallel=*/true, /*same_core=*/false);
    rtpar::validate_taskset(set);
    check_locked_plans(set, tally);
  }
  report_tally("parallel", kSets, tally);
  // The federated planners charge a parallel user's spins into its work and span (MSRP; Dinh et
  // al. 2018): they must admit enough parallel sets with locks for the simulation to mean
  // something (partitioned refuses a team using a global lock).
  CHECK(tally.admitted[0] >= 50);
  CHECK(tally.admitted[1] >= 50);  // federated-ws
}

namespace {

// to_edf_band moves each placed task into its core's EDF band (no priority) with probability
// 1/2, drawn from its own generator so that the drawing of the set above is unchanged; the others
// keep their static priorities (1..20, below every band).
void to_edf_band(rtpar::Rng& rng, TaskSet& set) {
  for (TaskSpec& t : set.tasks) {
    if (!t.places.empty() && rng.below(2) == 0) t.priority.reset();
  }
}

}  // namespace

TEST_CASE("planners vs simulation with locks: EDF bands with non-preemptive sections") {
  // The EDF band's demand test with B(t) (analysis/bounds/edf_blocking.hpp) against the
  // simulator's MSRP sections (a lock with an EDF user is MSRP, non-preemptive, even on one core).
  rtpar::Rng rng(11282026);
  rtpar::Rng band(2611);
  LockTally one, spread;
  constexpr int kSets = 300;
  for (int i = 0; i < kSets; ++i) {
    TaskSet set = locked_set(rng, /*parallel=*/false, /*same_core=*/true);
    to_edf_band(band, set);
    rtpar::validate_taskset(set);
    check_locked_plans(set, one);
    TaskSet wide = locked_set(rng, /*parallel=*/false, /*same_core=*/false);
    to_edf_band(band, wide);
    rtpar::validate_taskset(wide);
    check_locked_plans(wide, spread);
  }
  report_tally("EDF band, one core", kSets, one);
  report_tally("EDF band, spread", kSets, spread);
  CHECK(one.admitted[4] >= 50);  // partitioned: the band test with blocking
  CHECK(spread.admitted[4] >= 50);
}

namespace {

// tight_band draws a core-0 EDF band where the blocking decides: a short task (deadline at most
// its period, work up to half its deadline) and a long one (period and deadline 48 units) that
// share a lock whose hold is up to the short task's deadline (its own section is cut to its
// work when longer: lock_sections.hpp), so a test that forgot B(t)
// would admit sets the simulation refutes; a third task sometimes joins at a static priority.
TaskSet tight_band(rtpar::Rng& rng) {
  TaskSet set;
  set.source = "<tight EDF band>";
  set.system.cores = {0};
  TaskSpec s;
  s.name = "short";
  const std::int64_t ps = kLockPeriods[rng.uniform_int(0, 3)];
  const std::int64_t ds = rng.uniform_int((ps + 2) / 3, ps);
  const std::int64_t cs = rng.uniform_int(1, std::max<std::int64_t>(1, ds / 2));
  s.period = lock_units(ps);
  s.deadline = lock_units(ds);
  s.work = s.span = lock_units(cs);
  s.places = {0};
  s.threads = 1;
  TaskSpec l;
  l.name = "long";
  l.period = l.deadline = lock_units(48);
  const std::int64_t hold = rng.uniform_int(1, std::max<std::int64_t>(1, ds - 1));
  l.work = l.span = lock_units(rng.uniform_int(hold, 24));
  l.places = {0};
  l.threads = 1;
  set.tasks = {s, l};
  if (rng.below(3) == 0) {
    TaskSpec b = l;
    b.name = "static";
    b.priority = 5;
    b.work = b.span = lock_units(rng.uniform_int(hold, std::max<std::int64_t>(hold, 8)));
    set.tasks.push_back(b);
  }
  rtpar::ChannelSpec ch;
  ch.name = "m";
  ch.kind = rtpar::ChannelKind::lock;
  ch.size_bytes = 8;
  ch.accesses = 1;
  ch.hold = lock_units(hold);
  ch.writer = "long";
  ch.readers = {"short"};
  if (set.tasks.size() == 3) ch.readers.push_back("static");
  set.channels.push_back(std::move(ch));
  return set;
}

}  // namespace

TEST_CASE("planners vs simulation with locks: tight EDF bands where the blocking decides") {
  rtpar::Rng rng(1129);
  LockTally tally;
  constexpr int kSets = 400;
  for (int i = 0; i < kSets; ++i) {
    const TaskSet set = tight_band(rng);
    rtpar::validate_taskset(set);
    check_locked_plans(set, tally);
  }
  report_tally("tight EDF band", kSets, tally);
  CHECK(tally.admitted[4] >= 50);
}
