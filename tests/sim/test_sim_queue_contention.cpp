// test_sim_queue_contention.cpp — the centralized queue's contention cost (src/sim/node_queue.hpp,
// queue_hold, grain_units): k other contenders by hand, the grain's holds, and a tiny simulation
// where the fitted central queue (RTWS Table I, tools/fit_queue_contention.py) runs a fine-grained
// bag slower than work stealing does (RTWS §IV-A, §VII).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/node_queue.hpp"
#include "support/sim_team_set.hpp"

using rtpar::sim::NodeQueue;
using rtpar::sim::NodeQueueParams;
using rtpar::sim::QueueModel;
using rtpar::sim::Take;

TEST_CASE("queue contention: a hold is units x (lock + others x contention)") {
  CHECK(rtpar::sim::queue_hold(10, 3, 0, 1) == 10);
  CHECK(rtpar::sim::queue_hold(10, 3, 2, 1) == 16);
  CHECK(rtpar::sim::queue_hold(10, 3, 2, 4) == 64);
  CHECK(rtpar::sim::grain_units(25, 10) == 3);
  CHECK(rtpar::sim::grain_units(20, 10) == 2);
  CHECK(rtpar::sim::grain_units(5, 10) == 1);
  CHECK(rtpar::sim::grain_units(1'000, 0) == 1);
}

TEST_CASE("queue contention: k workers waiting make the next wait longer (hand-computed)") {
  NodeQueueParams p;
  p.model = QueueModel::centralized;
  p.lock_ns = 10;
  p.contention_ns = 3;
  p.workers = 3;
  NodeQueue q(p);
  // The release enqueues n0, n1, n2 at 0: one contender (the release itself), no others: holds
  // 0..10, 10..20, 20..30.
  CHECK_FALSE(q.push(0, 0, -1));
  CHECK_FALSE(q.push(1, 0, -1));
  CHECK_FALSE(q.push(2, 0, -1));
  CHECK(q.next_due() == 10);
  CHECK(q.advance(30));
  // At 30 the lock is free and uncontended: worker 0 holds 30..40 (k = 0: 10).
  Take a = q.take(0, 30);
  CHECK(a.node == 0);
  CHECK(a.cost == 10);
  q.used_up(a);
  // Worker 1 asks at 30 behind worker 0 (k = 1: 13): granted at 40, ends 53, waits 23.
  Take b = q.take(1, 30);
  CHECK(b.node == 1);
  CHECK(b.cost == 23);
  q.used_up(b);
  // Worker 2 asks at 30 behind both (k = 2: 16): granted at 53, ends 69, waits 39.
  Take c = q.take(2, 30);
  CHECK(c.node == 2);
  CHECK(c.cost == 39);
  q.used_up(c);
}

TEST_CASE("queue contention: a coarse node pays one hold per real task of the grain") {
  NodeQueueParams p;
  p.model = QueueModel::centralized;
  p.lock_ns = 10;
  p.grain_ns = 10;
  p.lengths = {25, 5};
  NodeQueue q(p);
  CHECK_FALSE(q.push(0, 0, -1));  // 3 real tasks: 0..30
  CHECK_FALSE(q.push(1, 0, -1));  // 1: 30..40
  CHECK(q.next_due() == 30);
  CHECK(q.advance(40));
}

namespace {

// fine_bag is one DAG task of 256 independent 100 ns nodes (C = 25.6 µs, L = 100 ns), D = 5 µs,
// T = 100 µs, on 8 cores: federated gives it ⌈(C − L)/(D − L)⌉ = 6 of them.
rtpar::TaskSet fine_bag() {
  rtpar::TaskSet set;
  set.source = "<fine bag>";
  set.system.cores = {0, 1, 2, 3, 4, 5, 6, 7};
  rtpar::TaskSpec t;
  t.name = "bag";
  t.period = rtpar::Duration(100'000);
  t.deadline = rtpar::Duration(5'000);
  rtpar::DagSpec dag;
  for (int i = 0; i < 256; ++i) {
    dag.nodes.push_back({"n" + std::to_string(i), rtpar::Duration(100), {}, {}});
  }
  t.dag = dag;
  t.work = rtpar::Duration(25'600);
  t.span = rtpar::Duration(100);
  set.tasks.push_back(t);
  rtpar::validate_taskset(set);
  return set;
}

// mean_response simulates the bag under `o` and returns its jobs' mean response.
std::int64_t mean_response(const rtpar::SimOptions& o) {
  const rtpar::TaskSet set = fine_bag();
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  const std::vector<std::int64_t> r = rtpar::testing::first_task_responses(plan, set, o);
  REQUIRE_FALSE(r.empty());
  return std::accumulate(r.begin(), r.end(), std::int64_t{0}) / static_cast<std::int64_t>(r.size());
}

}  // namespace

TEST_CASE("queue contention: at fine grain the fitted central queue is slower than stealing") {
  rtpar::SimOptions steal;
  steal.team_model = rtpar::TeamModel::steal;
  steal.steal_cost_ns = 50;
  steal.steal_attempt_ns = 50;
  rtpar::SimOptions central;
  central.team_model = rtpar::TeamModel::centralized;
  central.queue_lock_ns = 29;  // tools/fit_queue_contention.py
  rtpar::SimOptions contended = central;
  contended.queue_contention_ns = 2;
  const std::int64_t ws = mean_response(steal);
  const std::int64_t cg = mean_response(central);
  const std::int64_t cgc = mean_response(contended);
  // 256 enqueues alone hold the lock 256 × 29 ns = 7.4 µs; stealing spreads 25.6 µs over 6.
  CHECK(cg >= 256 * 29);
  CHECK(cgc > cg);
  CHECK(ws < cg);
}

TEST_CASE("queue contention: the settings need the centralized model") {
  const rtpar::TaskSet set = fine_bag();
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  rtpar::SimOptions o;
  o.queue_contention_ns = 2;
  CHECK_THROWS_AS(rtpar::simulate_plan(plan, set, o), rtpar::InputError);
  o = {};
  o.queue_grain_ns = 1'000;
  CHECK_THROWS_AS(rtpar::simulate_plan(plan, set, o), rtpar::InputError);
}

TEST_CASE("queue contention: the document records the centralized model's settings, only there") {
  const rtpar::TaskSet set = fine_bag();
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  rtpar::SimOptions o;
  o.team_model = rtpar::TeamModel::centralized;
  o.queue_lock_ns = 29;
  o.queue_contention_ns = 2;
  o.queue_grain_ns = 1'000;
  const std::string json = rtpar::simulation_json(rtpar::simulate_plan(plan, set, o));
  CHECK(json.find("\"queue_contention_ns\": 2") != std::string::npos);
  CHECK(json.find("\"queue_grain_ns\": 1000") != std::string::npos);
  const std::string greedy = rtpar::simulation_json(rtpar::simulate_plan(plan, set, {}));
  CHECK(greedy.find("queue_contention_ns") == std::string::npos);
}
