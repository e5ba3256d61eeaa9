// test_sim_ws_model.cpp — SimOptions::team_model = steal: the randomized work-stealing model
// (per-worker deques, owner LIFO, random victims, steal/attempt/spawn costs) by hand, its
// independence of the seed where nothing can be stolen, and its determinism for a fixed seed.
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/node_queue.hpp"
#include "support/sim_team_set.hpp"

using rtpar::testing::all_equal;

namespace {

// NodeDef is one DAG node for dag_set: its length in ns and its predecessors.
struct NodeDef {
  std::int64_t length_ns;
  std::vector<int> after;
};

// dag_set is one DAG task (T = 100 µs) with the given nodes and deadline on `cores` CPUs.
rtpar::TaskSet dag_set(const std::vector<NodeDef>& nodes, std::int64_t deadline_ns, int cores) {
  rtpar::TaskSet set;
  set.source = "<ws model>";
  for (int c = 0; c < cores; ++c) set.system.cores.push_back(c);
  rtpar::TaskSpec t;
  t.name = "dag";
  t.period = rtpar::Duration(100'000);
  t.deadline = rtpar::Duration(deadline_ns);
  rtpar::DagSpec dag;
  std::int64_t work = 0;
  std::vector<std::int64_t> finish;  // longest path ending at each node (the span)
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    dag.nodes.push_back(
        {"n" + std::to_string(i), rtpar::Duration(nodes[i].length_ns), nodes[i].after, {}});
    std::int64_t start = 0;
    for (const int p : nodes[i].after) start = std::max(start, finish[static_cast<std::size_t>(p)]);
    finish.push_back(start + nodes[i].length_ns);
    work += nodes[i].length_ns;
  }
  t.dag = dag;
  t.work = rtpar::Duration(work);
  t.span = rtpar::Duration(*std::max_element(finish.begin(), finish.end()));
  set.tasks.push_back(t);
  rtpar::validate_taskset(set);
  return set;
}

// Costs are the steal model's three costs in ns.
struct Costs {
  std::int64_t steal = 0, attempt = 0, spawn = 0;
};

// responses simulates 10 jobs of `set` under the steal model with the team on `team` cores
// (the federated plan, its cores replaced by 0..team−1) and returns the jobs' responses.
std::vector<std::int64_t> responses(const rtpar::TaskSet& set, int team, Costs costs,
                                    std::uint64_t seed = 0) {
  rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  plan.tasks.at(0).cores.clear();
  plan.tasks.at(0).thread_cores.clear();
  for (int c = 0; c < team; ++c) plan.tasks.at(0).cores.push_back(c);
  rtpar::SimOptions o;
  o.team_model = rtpar::TeamModel::steal;
  o.steal_cost_ns = costs.steal;
  o.steal_attempt_ns = costs.attempt;
  o.spawn_cost_ns = costs.spawn;
  o.seed = seed;
  return rtpar::testing::first_task_responses(plan, set, o);
}

// run_cli runs `rtpar ARGS` and returns (exit status, stdout + stderr).
std::pair<int, std::string> run_cli(const std::string& args) {
  const std::string cmd = std::string(RTPAR_BINARY_DIR) + "/rtpar " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f != nullptr);
  std::string out;
  std::array<char, 256> buf{};
  while (fgets(buf.data(), buf.size(), f) != nullptr) out += buf.data();
  const int status = pclose(f);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// fork_set is A (1 µs) → {B (2 µs), C (1 µs)}: node indices A = 0, B = 1, C = 2.
rtpar::TaskSet fork_set() { return dag_set({{1'000, {}}, {2'000, {0}}, {1'000, {0}}}, 10'000, 2); }

}  // namespace

TEST_CASE("ws model: fork on 2 workers, failed attempts quantize the steal (hand-computed)") {
  // W0 (master) gets A at the release and runs it 0–1 µs. W1 finds W0's deque empty: failed
  // attempts end at 0.3, 0.6, 0.9, 1.2 µs. At 1 µs A enables B then C, pushed on W0's deque
  // ([B, C], C at the bottom): W0 pops C, runs it 1–2 µs. W1's attempt at 1.2 µs finds B at
  // W0's top and steals it: 1.2–3.2 µs. Response 3.2 µs.
  CHECK(all_equal(responses(fork_set(), 2, Costs{0, 300, 0}), 3'200));
}

TEST_CASE("ws model: steal and spawn costs (hand-computed)") {
  // As above with a 500 ns steal and 100 ns per spawned node: W0 finishes A at 1 µs, then spawns
  // B and C for 200 ns; both are pushed at 1.2 µs, when W1's fourth failed attempt also ends.
  // W0 pops C (1.2–2.2 µs); W1 steals B: 500 ns + 2 µs, 1.2–3.7 µs. Response 3.7 µs.
  CHECK(all_equal(responses(fork_set(), 2, Costs{500, 300, 100}), 3'700));
  // With one worker nothing is stolen: A, spawn 200 ns, C, B: 1 + 0.2 + 1 + 2 = 4.2 µs.
  CHECK(all_equal(responses(fork_set(), 1, Costs{500, 300, 100}), 4'200));
}

TEST_CASE("ws model: a chain runs on its owner, whatever the seed") {
  // Each node is enabled by its predecessor's worker and popped by it at once: thieves only
  // fail. Response = Σ lengths + one spawn per enabled node (B, C): 1 + 2 + 3 + 2 × 0.05 µs.
  const rtpar::TaskSet chain = dag_set({{1'000, {}}, {2'000, {0}}, {3'000, {1}}}, 20'000, 3);
  for (const std::uint64_t seed : {0ULL, 1ULL, 42ULL, 123456789ULL}) {
    CHECK(all_equal(responses(chain, 3, Costs{700, 130, 50}, seed), 6'100));
  }
}

TEST_CASE("ws model: 3 workers, random victims: deterministic for a seed, varied across seeds") {
  // A wide DAG: a source, 8 independent nodes of different lengths, a sink.
  std::vector<NodeDef> nodes{{500, {}}};
  for (int i = 0; i < 8; ++i) nodes.push_back({1'000 + 370 * i, {0}});
  std::vector<int> all;
  for (int i = 1; i <= 8; ++i) all.push_back(i);
  nodes.push_back({500, all});
  const rtpar::TaskSet wide = dag_set(nodes, 50'000, 3);
  std::set<std::vector<std::int64_t>> seen;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const std::vector<std::int64_t> a = responses(wide, 3, Costs{400, 250, 30}, seed);
    CHECK(a == responses(wide, 3, Costs{400, 250, 30}, seed));
    const std::int64_t work = 500 + 500 + 8 * 1'000 + 370 * 28;
    for (const std::int64_t r : a) {
      CHECK(r >= work / 3);  // never faster than 3 workers without overheads
      CHECK(r <= work + 9 * 30 + 8 * 400 + 8 * 250);  // nor slower than serial with all costs
    }
    seen.insert(a);
  }
  CHECK(seen.size() > 1);  // the victims depend on the seed
}

TEST_CASE("ws model: steal_victim is uniform over the other workers") {
  int counts[4] = {0, 0, 0, 0};
  for (std::uint64_t a = 0; a < 3000; ++a) {
    const int v = rtpar::sim::steal_victim(7, 0, 0, 2, a, 4);
    REQUIRE(v >= 0);
    REQUIRE(v < 4);
    ++counts[v];
  }
  CHECK(counts[2] == 0);
  for (const int v : {0, 1, 3}) CHECK(counts[v] > 900);
  CHECK(rtpar::sim::steal_victim(7, 1, 2, 0, 5, 3) == rtpar::sim::steal_victim(7, 1, 2, 0, 5, 3));
}

TEST_CASE("ws model: its costs are checked") {
  const rtpar::TaskSet set = fork_set();
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::federated, set, {});
  rtpar::SimOptions o;
  o.team_model = rtpar::TeamModel::steal;
  CHECK_THROWS_WITH_AS(rtpar::simulate_plan(plan, set, o), doctest::Contains("steal_attempt"),
                       rtpar::InputError);
  o.steal_attempt_ns = 100;
  o.spawn_cost_ns = -1;
  CHECK_THROWS_WITH_AS(rtpar::simulate_plan(plan, set, o), doctest::Contains("spawn_cost"),
                       rtpar::InputError);
  o.team_model = rtpar::TeamModel::greedy;
  o.spawn_cost_ns = 0;
  CHECK_THROWS_WITH_AS(rtpar::simulate_plan(plan, set, o), doctest::Contains("steal_attempt"),
                       rtpar::InputError);
}

TEST_CASE("ws model: pinned strands have no thieves (strand plans run as under greedy)") {
  // examples/partitioned_heavy.toml under decomposition and fork-join-rta: every node is pinned,
  // so the steal model must not add spinning thieves that would take cores from other tasks.
  const rtpar::TaskSet set =
      rtpar::load_taskset(std::string(RTPAR_SOURCE_DIR) + "/examples/partitioned_heavy.toml");
  for (const rtpar::PlannerKind kind :
       {rtpar::PlannerKind::decomposition, rtpar::PlannerKind::fork_join_rta}) {
    const rtpar::Plan plan = rtpar::plan_with(kind, set, {});
    rtpar::SimOptions greedy;
    greedy.record_jobs = true;
    rtpar::SimOptions steal = greedy;
    steal.team_model = rtpar::TeamModel::steal;
    steal.steal_attempt_ns = 300;
    steal.steal_cost_ns = 1'000;
    const rtpar::SimResult a = rtpar::simulate_plan(plan, set, greedy);
    const rtpar::SimResult b = rtpar::simulate_plan(plan, set, steal);
    REQUIRE(a.tasks.size() == b.tasks.size());
    for (std::size_t i = 0; i < a.tasks.size(); ++i) {
      CHECK(a.tasks[i].misses == b.tasks[i].misses);
      CHECK(a.tasks[i].max_response_ns == b.tasks[i].max_response_ns);
      CHECK(a.tasks[i].jobs_log.size() == b.tasks[i].jobs_log.size());
    }
  }
}

TEST_CASE("ws model: the simulate CLI flags") {
  const std::string steal = std::string(RTPAR_SOURCE_DIR) + "/examples/steal.toml";
  const std::pair<std::string, std::string> bad[] = {
      {" --team-model steal", "--steal-attempt"},
      {" --team-model steal --steal-attempt -1us", "--steal-attempt"},
      {" --team-model steal --steal-attempt 1us --spawn-cost 3parsecs", "--spawn-cost"},
      {" --steal-cost 1us", "--steal-cost"},
      {" --team-model robin", "--team-model"},
  };
  for (const auto& c : bad) {
    const std::string& args = c.first;  // not a structured binding: CAPTURE is a lambda
    const std::string& flag = c.second;
    CAPTURE(args);
    const auto [status, out] = run_cli("simulate " + steal + args);
    CHECK(status == 2);
    CHECK(out.find(flag) != std::string::npos);
  }
  const auto [status, out] = run_cli(
      "simulate " + steal +
      " --team-model steal --steal-attempt 200ns --steal-cost 1us --spawn-cost 100ns --json");
  CHECK(status == 0);
  CHECK(out.find("\"team_model\": \"steal\"") != std::string::npos);
  CHECK(out.find("\"steal_attempt_ns\": 200") != std::string::npos);
  CHECK(out.find("\"spawn_cost_ns\": 100") != std::string::npos);
}
