// test_light_first_fit.cpp — the incremental first-fit of light tasks
// (src/analysis/bounds/light_first_fit.hpp) against the plain algorithm it replaced: every trial
// re-runs a textbook RTA (iterated from C, no shortcut) of every task on the core. Same
// placements, priorities and responses on random sets with global priorities, per-core
// priorities (> 90 tasks, so most of a core shares priority 1) and explicit overrides.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "analysis/bounds/light_first_fit.hpp"
#include "analysis/bounds/priorities.hpp"
#include "rtpar/taskset.hpp"

using rtpar::Duration;
using rtpar::TaskSet;
using rtpar::TaskSpec;
using rtpar::analysis::first_fit_light;
using rtpar::analysis::LightPlacement;
using rtpar::analysis::PriorityScheme;
using rtpar::analysis::RtaInterferer;

namespace {

// plain_response is the textbook RTA of task i among `tasks` (hp = j ≠ i with priority ≥ p_i),
// iterated from C_i until it settles or passes D_i, with the interferers `above` (C, T) in every
// hp set. Exact integers; the test sets keep it short.
std::optional<std::int64_t> plain_response(const TaskSet& set,
                                           const std::vector<std::size_t>& tasks,
                                           const std::vector<int>& prio, std::size_t i,
                                           const std::vector<RtaInterferer>& above = {}) {
  const TaskSpec& self = set.tasks[tasks[i]];
  __int128 r = self.work.count();
  for (;;) {
    __int128 next = self.work.count();
    for (const RtaInterferer& a : above) next += (r + a.period - 1) / a.period * a.wcet;
    for (std::size_t j = 0; j < tasks.size(); ++j) {
      if (j == i || prio[j] < prio[i]) continue;
      const TaskSpec& o = set.tasks[tasks[j]];
      next += (r + o.period.count() - 1) / o.period.count() * o.work.count();
    }
    if (next > self.deadline.count()) return std::nullopt;
    if (next == r) return static_cast<std::int64_t>(r);
    r = next;
  }
}

// plain_first_fit is the algorithm before the incremental one (same order, same trial rule).
std::vector<LightPlacement> plain_first_fit(const TaskSet& set,
                                            const std::vector<std::size_t>& light,
                                            const std::vector<int>& cores,
                                            const PriorityScheme& priorities,
                                            const std::vector<RtaInterferer>& above = {}) {
  std::vector<std::size_t> order = light;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const TaskSpec& ta = set.tasks[a];
    const TaskSpec& tb = set.tasks[b];
    const __int128 lhs = static_cast<__int128>(ta.work.count()) * tb.period.count();
    const __int128 rhs = static_cast<__int128>(tb.work.count()) * ta.period.count();
    if (lhs != rhs) return lhs > rhs;
    if (ta.name != tb.name) return ta.name < tb.name;
    return a < b;
  });
  std::vector<std::vector<std::size_t>> members(cores.size());
  for (std::size_t task : order) {
    for (auto& core : members) {
      std::vector<std::size_t> trial = core;
      trial.push_back(task);
      const std::vector<int> prio = priorities.on_core(trial);
      bool ok = true;
      for (std::size_t i = 0; i < trial.size() && ok; ++i) {
        ok = plain_response(set, trial, prio, i, above).has_value();
      }
      if (ok) {
        core = std::move(trial);
        break;
      }
    }
  }
  std::vector<LightPlacement> out(set.tasks.size());
  for (std::size_t task : light) out[task].priority = priorities.on_core({task}).front();
  for (std::size_t c = 0; c < cores.size(); ++c) {
    const std::vector<int> prio = priorities.on_core(members[c]);
    for (std::size_t k = 0; k < members[c].size(); ++k) {
      LightPlacement& p = out[members[c][k]];
      p.core = cores[c];
      p.priority = prio[k];
      if (const auto r = plain_response(set, members[c], prio, k, above)) {
        p.response = Duration(*r);
      }
    }
  }
  return out;
}

// random_set draws n light tasks (C ≤ D ≤ T, periods from a small menu so cores fill up and
// the exact RTA decides many trials); every `override_every`-th task gets an explicit priority.
TaskSet random_set(std::mt19937_64& rng, std::size_t n, int override_every, double load) {
  static const std::int64_t kPeriods[] = {10, 12, 15, 20, 25, 30, 40, 50, 60, 100, 120, 200};
  TaskSet set;
  for (std::size_t i = 0; i < n; ++i) {
    TaskSpec t;
    t.name = "t" + std::to_string(i);
    t.period = Duration(kPeriods[rng() % std::size(kPeriods)] * 1000);
    t.deadline =
        Duration(t.period.count() - static_cast<std::int64_t>(rng() % 3) * t.period.count() / 5);
    const double share = load * (0.2 + static_cast<double>(rng() % 1000) / 625.0);
    const auto c = static_cast<std::int64_t>(static_cast<double>(t.period.count()) * share);
    t.work = t.span = Duration(std::clamp<std::int64_t>(c, 1, t.deadline.count()));
    if (override_every > 0 && i % static_cast<std::size_t>(override_every) == 0) {
      t.priority = 1 + static_cast<int>(rng() % 89);
    }
    set.tasks.push_back(t);
  }
  return set;
}

}  // namespace

TEST_CASE("first_fit_light: same placements and responses as re-running the RTA per trial") {
  std::mt19937_64 rng(12);
  struct Shape {
    std::size_t n;
    int override_every;
    double load;  // mean utilization of one task
    std::size_t cores;
  };
  // Few tasks (global priorities), > 90 tasks (per core), overrides (global with ties; per core
  // with overrides among computed ranks), heavy per-task loads that leave tasks unplaced, and
  // light ones that put more than 89 tasks on a core (the shared bottom priority).
  const Shape shapes[] = {{12, 0, 0.15, 3},   {40, 4, 0.08, 4},   {60, 1, 0.06, 3},
                          {140, 0, 0.012, 3}, {140, 5, 0.012, 3}, {200, 0, 0.02, 2},
                          {160, 1, 0.01, 2},  {120, 3, 0.03, 4},  {240, 0, 0.0045, 2},
                          {220, 6, 0.005, 2}, {200, 0, 0.006, 1}};
  int placed = 0;
  int unplaced = 0;
  for (const Shape& shape : shapes) {
    for (int round = 0; round < 4; ++round) {
      const TaskSet set = random_set(rng, shape.n, shape.override_every, shape.load);
      std::vector<std::size_t> light(set.tasks.size());
      for (std::size_t i = 0; i < light.size(); ++i) light[i] = i;
      std::vector<int> cores(shape.cores);
      for (std::size_t c = 0; c < cores.size(); ++c) cores[c] = static_cast<int>(c);
      const PriorityScheme priorities(set, std::vector<bool>(set.tasks.size(), false));
      const auto got = first_fit_light(set, light, cores, priorities);
      const auto want = plain_first_fit(set, light, cores, priorities);
      for (std::size_t i = 0; i < set.tasks.size(); ++i) {
        CAPTURE(shape.n);
        CAPTURE(round);
        CAPTURE(i);
        CHECK(got[i].core == want[i].core);
        CHECK(got[i].priority == want[i].priority);
        CHECK(got[i].response == want[i].response);
        CHECK_FALSE(got[i].capped);
        (want[i].core ? placed : unplaced) += 1;
      }
    }
  }
  // Both outcomes occur, so the comparison is not vacuous.
  CHECK(placed > 500);
  CHECK(unplaced > 100);
}

TEST_CASE("first_fit_light: a core with U = 1 rejects a task with a 10^6 times longer period") {
  // The "fully used core": without the U and U_hp tests the RTA of `slow` would step through
  // about 10^6 busy periods of `full`; here it is refused at once and placed on the next core.
  TaskSet set;
  TaskSpec full;
  full.name = "full";
  full.period = full.deadline = full.work = full.span = Duration(1'000'000);
  TaskSpec slow;
  slow.name = "slow";
  slow.period = slow.deadline = Duration(1'000'000'000'000);
  slow.work = slow.span = Duration(1'000);
  set.tasks = {full, slow};
  const PriorityScheme priorities(set, {false, false});
  const auto got = first_fit_light(set, {0, 1}, {0, 1}, priorities);
  CHECK(got[0].core == 0);
  CHECK(got[1].core == 1);
  CHECK(got[1].response == Duration(1'000));
  const auto alone = first_fit_light(set, {0, 1}, {0}, priorities);
  CHECK_FALSE(alone[1].core.has_value());
  CHECK_FALSE(alone[1].capped);
}

TEST_CASE("first_fit_light: an RTA that reaches the iteration cap refuses the task and says so") {
  // U_full = 1 − 1e-7: the RTA of `slow` from C + C_full adds one job of `full` per step and
  // would need ~1.5·10^6 steps to pass D = 1.5·10^13 ns (its response is ~2·10^13 ns).
  TaskSet set;
  TaskSpec full;
  full.name = "full";
  full.period = full.deadline = Duration(10'000'000);
  full.work = full.span = Duration(9'999'999);
  TaskSpec slow;
  slow.name = "slow";
  slow.period = Duration(100'000'000'000'000);
  slow.deadline = Duration(15'000'000'000'000);
  slow.work = slow.span = Duration(2'000'000);
  set.tasks = {full, slow};
  const PriorityScheme priorities(set, {false, false});
  const auto got = first_fit_light(set, {0, 1}, {0}, priorities);
  CHECK(got[0].core == 0);
  CHECK_FALSE(got[1].core.has_value());
  CHECK(got[1].capped);
}

TEST_CASE(
    "first_fit_light: with the kernel's server above every task, same as the plain algorithm") {
  // The server as federated charges it (server_rta_tasks): (Q, P) and one Q with a period of the
  // largest deadline. Every trial, with or without the incremental shortcuts, sees it on top.
  std::mt19937_64 rng(29);
  int placed = 0;
  int unplaced = 0;
  for (const std::size_t n : {12U, 60U, 140U, 200U}) {
    for (int round = 0; round < 3; ++round) {
      const TaskSet set = random_set(rng, n, n == 60 ? 4 : 0, n < 100 ? 0.1 : 0.012);
      std::vector<std::size_t> light(set.tasks.size());
      std::int64_t horizon = 1;
      for (std::size_t i = 0; i < light.size(); ++i) {
        light[i] = i;
        horizon = std::max(horizon, set.tasks[i].deadline.count());
      }
      const std::vector<RtaInterferer> above = {{2'000, 50'000}, {2'000, horizon}};
      const std::vector<int> cores = {0, 1, 2};
      const PriorityScheme priorities(set, std::vector<bool>(set.tasks.size(), false));
      const auto got = first_fit_light(set, light, cores, priorities, above);
      const auto want = plain_first_fit(set, light, cores, priorities, above);
      for (std::size_t i = 0; i < set.tasks.size(); ++i) {
        CAPTURE(n);
        CAPTURE(round);
        CAPTURE(i);
        CHECK(got[i].core == want[i].core);
        CHECK(got[i].priority == want[i].priority);
        CHECK(got[i].response == want[i].response);
        (want[i].core ? placed : unplaced) += 1;
      }
    }
  }
  CHECK(placed > 100);
  CHECK(unplaced > 20);
}
