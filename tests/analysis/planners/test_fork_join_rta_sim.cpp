// test_fork_join_rta_sim.cpp — the fork/join RTA (fjrta.hpp) against a brute-force,
// unit-step simulation of partitioned preemptive fixed-priority scheduling of fork/join tasks.
//
// With integer release times and WCETs every scheduling event is at an integer instant, so a
// unit-step simulation is exact. Two checks:
//  * single-core placements (every task on one core; tasks on two cores): the RTA is exact, so
//    under synchronous periodic release its bound equals the largest simulated response, and a
//    task it rejects misses its deadline in the simulation (critical instant, D ≤ T);
//  * multi-core placements: the bound (with and without the critical-strand chains) is never below
//    a simulated response, for synchronous and random release offsets and shortened executions,
//    and chains never give a larger bound than the plain analysis.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "analysis/bounds/fork_join_stage_rta.hpp"

using rtpar::analysis::FjGroup;
using rtpar::analysis::FjStage;
using rtpar::analysis::FjTask;

namespace {

// Job is one active job in the simulation: its task, release, current stage and the remaining
// execution of each aggregate strand of that stage (same order as the stage's groups).
struct Job {
  std::size_t task;
  std::int64_t release;
  std::size_t stage;
  std::vector<std::int64_t> remaining;
};

// SimResult is the largest response of each task's jobs and whether one missed its deadline.
struct SimResult {
  std::vector<std::int64_t> worst;
  std::vector<bool> missed;
};

// simulate runs jobs released at offset[i] + k·T_i before `horizon` until all complete (or a cap
// of horizon + 4·max T, after which unfinished jobs count as misses). exec(i, stage, group, c)
// gives the actual execution time of a strand with WCET c. Each core runs the ready strand of
// highest priority; among equal priorities the earlier release (priorities here are distinct).
template <class Exec>
SimResult simulate(const std::vector<FjTask>& tasks, const std::vector<std::int64_t>& offset,
                   std::int64_t horizon, Exec exec) {
  SimResult out{std::vector<std::int64_t>(tasks.size(), 0), std::vector<bool>(tasks.size(), false)};
  std::int64_t longest = 0;
  int max_core = 0;
  for (const FjTask& t : tasks) {
    longest = std::max(longest, t.period);
    for (const FjStage& s : t.stages) {
      for (const FjGroup& g : s.groups) max_core = std::max(max_core, g.core);
    }
  }
  auto start_stage = [&](Job& job) {
    const FjStage& s = tasks[job.task].stages[job.stage];
    job.remaining.clear();
    for (std::size_t k = 0; k < s.groups.size(); ++k) {
      job.remaining.push_back(exec(job.task, job.stage, k, s.groups[k].wcet));
    }
  };
  std::vector<Job> active;
  const std::int64_t stop = horizon + 4 * longest;
  for (std::int64_t t = 0; t < stop; ++t) {
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      if (t < horizon && t >= offset[i] && (t - offset[i]) % tasks[i].period == 0) {
        active.push_back(Job{i, t, 0, {}});
        start_stage(active.back());
      }
    }
    if (t >= horizon && active.empty()) break;
    // Pick per core the ready strand of highest priority, then run each for one unit.
    for (int core = 0; core <= max_core; ++core) {
      Job* best = nullptr;
      std::size_t best_group = 0;
      for (Job& job : active) {
        const FjStage& s = tasks[job.task].stages[job.stage];
        for (std::size_t k = 0; k < s.groups.size(); ++k) {
          if (s.groups[k].core != core || job.remaining[k] == 0) continue;
          const bool better = best == nullptr ||
                              tasks[job.task].priority > tasks[best->task].priority ||
                              (tasks[job.task].priority == tasks[best->task].priority &&
                               job.release < best->release);
          if (better) {
            best = &job;
            best_group = k;
          }
        }
      }
      if (best != nullptr) --best->remaining[best_group];
    }
    // Stages whose strands are all done complete at t + 1; the next stage is released then.
    for (auto it = active.begin(); it != active.end();) {
      while (std::all_of(it->remaining.begin(), it->remaining.end(),
                         [](std::int64_t r) { return r == 0; }) &&
             ++it->stage < tasks[it->task].stages.size()) {
        start_stage(*it);
      }
      if (it->stage >= tasks[it->task].stages.size()) {
        const std::int64_t response = t + 1 - it->release;
        out.worst[it->task] = std::max(out.worst[it->task], response);
        if (response > tasks[it->task].deadline) out.missed[it->task] = true;
        it = active.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const Job& job : active) out.missed[job.task] = true;
  return out;
}

// analyse_all runs fj_analyse on every task in priority order (highest first); result[i] is the
// bound of task i, nullopt when it or a higher-priority task fails (later ones are not analysed).
std::vector<std::optional<std::int64_t>> analyse_all(std::vector<FjTask>& tasks,
                                                     const rtpar::analysis::FjOptions& options) {
  std::vector<std::size_t> order(tasks.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&tasks](std::size_t a, std::size_t b) {
    return tasks[a].priority > tasks[b].priority;
  });
  std::vector<std::optional<std::int64_t>> bound(tasks.size());
  std::vector<const FjTask*> done;
  for (const std::size_t i : order) {
    bound[i] = rtpar::analysis::fj_analyse(tasks[i], done, options);
    if (!bound[i]) break;
    done.push_back(&tasks[i]);
  }
  return bound;
}

// Periods whose least common multiple is small (48), so a hyperperiod is cheap to simulate.
constexpr std::int64_t kPeriods[] = {6, 8, 12, 16, 24, 48};

}  // namespace

TEST_CASE("fjrta: exact against simulation for single-core placements (random, synchronous)") {
  std::mt19937 rng(20240613);
  auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  int compared = 0;
  int rejected = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = static_cast<std::size_t>(pick(2, 4));
    std::vector<FjTask> tasks(n);
    std::vector<int> priorities(n);
    std::iota(priorities.begin(), priorities.end(), 1);
    std::shuffle(priorities.begin(), priorities.end(), rng);
    for (std::size_t i = 0; i < n; ++i) {
      FjTask& t = tasks[i];
      t.period = kPeriods[pick(0, 5)];
      t.deadline = pick((t.period + 1) / 2, t.period);
      t.priority = priorities[i];
      const int core = static_cast<int>(pick(0, 1));
      const std::int64_t stages = pick(1, 3);
      for (std::int64_t s = 0; s < stages; ++s) {
        // strands × length aggregated on the one core
        t.stages.push_back(FjStage{{FjGroup{core, pick(1, 2) * pick(1, 2)}}});
      }
    }
    const auto bound = analyse_all(tasks, {});
    const SimResult sim =
        simulate(tasks, std::vector<std::int64_t>(n, 0), 48,
                 [](std::size_t, std::size_t, std::size_t, std::int64_t c) { return c; });
    // Tasks of a core that fails after the first failure are not analysed; compare the others.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&tasks](std::size_t a, std::size_t b) {
      return tasks[a].priority > tasks[b].priority;
    });
    for (const std::size_t i : order) {
      CAPTURE(trial);
      CAPTURE(i);
      if (bound[i]) {
        CHECK(sim.worst[i] == *bound[i]);
        CHECK_FALSE(sim.missed[i]);
        ++compared;
      } else {
        CHECK(sim.missed[i]);  // the synchronous release is the critical instant
        ++rejected;
        break;
      }
    }
  }
  CHECK(compared > 300);
  CHECK(rejected > 20);
}

TEST_CASE("fjrta: never below simulated responses for multi-core placements (random)") {
  std::mt19937 rng(777);
  auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  rtpar::analysis::FjOptions plain;
  plain.chains = false;
  int checked = 0;
  int tighter = 0;
  for (int trial = 0; trial < 800; ++trial) {
    const std::size_t n = static_cast<std::size_t>(pick(2, 4));
    std::vector<FjTask> tasks(n);
    std::vector<int> priorities(n);
    std::iota(priorities.begin(), priorities.end(), 1);
    std::shuffle(priorities.begin(), priorities.end(), rng);
    for (std::size_t i = 0; i < n; ++i) {
      FjTask& t = tasks[i];
      t.period = kPeriods[pick(1, 5)];
      t.deadline = pick((t.period + 1) / 2, t.period);
      t.priority = priorities[i];
      const std::int64_t stages = pick(1, 4);
      for (std::int64_t s = 0; s < stages; ++s) {
        FjStage stage;
        for (int core = 0; core < 3; ++core) {
          if (pick(0, 2) == 0) stage.groups.push_back(FjGroup{core, pick(1, 3)});
        }
        if (stage.groups.empty()) stage.groups.push_back(FjGroup{static_cast<int>(pick(0, 2)), 1});
        t.stages.push_back(stage);
      }
    }
    std::vector<FjTask> plain_tasks = tasks;
    const auto bound = analyse_all(tasks, {});
    const auto plain_bound = analyse_all(plain_tasks, plain);
    for (std::size_t i = 0; i < n; ++i) {
      if (plain_bound[i]) {
        REQUIRE(bound[i]);  // chains admit whatever the plain analysis admits
        CHECK(*bound[i] <= *plain_bound[i]);
        if (*bound[i] < *plain_bound[i]) ++tighter;
      }
    }
    if (!std::all_of(bound.begin(), bound.end(), [](const auto& b) { return b.has_value(); })) {
      continue;  // the bounds assume every interfering task meets its deadline
    }
    for (int run = 0; run < 4; ++run) {
      std::vector<std::int64_t> offset(n, 0);
      if (run > 0) {
        for (std::size_t i = 0; i < n; ++i) offset[i] = pick(0, tasks[i].period - 1);
      }
      const bool shorten = run >= 2;
      const SimResult sim = simulate(tasks, offset, 96 + 48,
                                     [&](std::size_t, std::size_t, std::size_t, std::int64_t c) {
                                       return shorten && pick(0, 2) == 0 ? pick(1, c) : c;
                                     });
      for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(trial);
        CAPTURE(run);
        CAPTURE(i);
        CHECK_FALSE(sim.missed[i]);
        CHECK(sim.worst[i] <= *bound[i]);
        // The returned bound is the last stage bound.
        CHECK(tasks[i].finish.back() == *bound[i]);
      }
      ++checked;
    }
  }
  CHECK(checked > 600);
  CHECK(tighter > 30);
}
