// test_sim_metrics.cpp — the context-switch cost per preemption, the miss-ratio and
// relative-response metrics, and the required-cores search, on hand-computed schedules (ns), and
// the simulate flags' bad values (exit status 2 naming the flag).
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/simulate.hpp"

using rtpar::Duration;

namespace {

// spec builds a TaskSpec (C, L, D, T, phase) in ns.
rtpar::TaskSpec spec(std::string name, std::int64_t c, std::int64_t l, std::int64_t d,
                     std::int64_t t, std::int64_t phase = 0) {
  rtpar::TaskSpec s;
  s.name = std::move(name);
  s.work = Duration(c);
  s.span = Duration(l);
  s.deadline = Duration(d);
  s.period = Duration(t);
  s.phase = Duration(phase);
  return s;
}

// one_core is lo (C = 10, T = 100, D = `lo_deadline`, priority 1) and hi (C = 1, T = D = 5,
// phase 2, priority 2) on core 0, simulated for 10 ns of releases with `context_switch`.
//   hi releases at 2 and 7 and preempts lo both times. Without a context switch lo runs 0–2,
//   3–7, 8–12 (R = 12); with c = 1 it resumes at 3 with 8 + 1 left (runs 3–7, 5 left) and at 8
//   with 5 + 1 left: R = 14 = 12 + 2c, two preemptions. hi: R = 1 twice (it preempts nobody's
//   resumption cost onto itself).
rtpar::SimResult one_core(std::int64_t context_switch, std::int64_t lo_deadline = 100) {
  rtpar::TaskSet set;
  set.source = "<memory>";
  rtpar::Plan plan;
  plan.schedulable = true;
  auto add = [&](rtpar::TaskSpec s, int priority) {
    rtpar::TaskPlan tp;
    tp.name = s.name;
    tp.cores = {0};
    tp.priority = priority;
    set.tasks.push_back(std::move(s));
    plan.tasks.push_back(std::move(tp));
  };
  add(spec("lo", 10, 10, lo_deadline, 100), 1);
  add(spec("hi", 1, 1, 5, 5, 2), 2);
  rtpar::SimOptions o;
  o.horizon_ns = 10;
  o.record_jobs = true;
  o.context_switch_ns = context_switch;
  return rtpar::simulate_plan(plan, set, o);
}

// run_cli runs `rtpar ARGS` and returns (exit status, stderr).
std::pair<int, std::string> run_cli(const std::string& args) {
  const std::string cmd = std::string(RTPAR_BINARY_DIR) + "/rtpar " + args + " 2>&1 >/dev/null";
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f != nullptr);
  std::string err;
  std::array<char, 256> buf{};
  while (fgets(buf.data(), buf.size(), f) != nullptr) err += buf.data();
  const int status = pclose(f);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, err};
}

}  // namespace

TEST_CASE("context switch: charged exactly once per preemption, on resume") {
  const rtpar::SimResult plain = one_core(0);
  REQUIRE(plain.tasks[0].jobs_log.size() == 1);
  CHECK(plain.tasks[0].jobs_log[0].finish_ns == 12);
  CHECK(plain.tasks[0].preemptions == 2);
  CHECK(plain.context_switch_ns == 0);

  const rtpar::SimResult charged = one_core(1);
  CHECK(charged.tasks[0].jobs_log[0].finish_ns == 14);
  CHECK(charged.tasks[0].preemptions == 2);
  CHECK(charged.tasks[1].preemptions == 0);
  REQUIRE(charged.tasks[1].jobs_log.size() == 2);
  CHECK(charged.tasks[1].jobs_log[0].finish_ns - charged.tasks[1].jobs_log[0].release_ns == 1);
  CHECK(charged.tasks[1].jobs_log[1].finish_ns - charged.tasks[1].jobs_log[1].release_ns == 1);

  // c = 3: lo resumes at 3 with 8 + 3 left, hi preempts at 7 (7 left), resumes at 8 with 7 + 3.
  CHECK(one_core(3).tasks[0].jobs_log[0].finish_ns == 18);
}

TEST_CASE("context switch: a negative cost is refused naming the flag") {
  try {
    one_core(-1);
    FAIL("no error");
  } catch (const rtpar::InputError& e) {
    CHECK(std::string(e.what()).find("context_switch") != std::string::npos);
  }
}

TEST_CASE("metrics: miss ratio and relative response per task and per set") {
  // Without context switches: lo R = 12 against D = 100 (0.12), hi R = 1, 1 against D = 5 (0.2).
  const rtpar::SimResult r = one_core(0);
  const rtpar::SimMetrics lo = rtpar::task_metrics(r.tasks[0]);
  const rtpar::SimMetrics hi = rtpar::task_metrics(r.tasks[1]);
  CHECK(lo.miss_ratio == doctest::Approx(0.0));
  CHECK(lo.mean_relative_response == doctest::Approx(0.12));
  CHECK(lo.max_relative_response == doctest::Approx(0.12));
  CHECK(hi.mean_relative_response == doctest::Approx(0.2));
  const rtpar::SimMetrics set = rtpar::set_metrics(r);
  CHECK(set.jobs == 3);
  CHECK(set.miss_ratio == doctest::Approx(0.0));
  CHECK(set.mean_relative_response == doctest::Approx((0.12 + 0.2 + 0.2) / 3));
  CHECK(set.max_relative_response == doctest::Approx(0.2));

  // lo with D = 11: R = 12 misses (12/11), hi does not: set miss ratio 1/3.
  const rtpar::SimResult late = one_core(0, 11);
  CHECK(rtpar::task_metrics(late.tasks[0]).miss_ratio == doctest::Approx(1.0));
  CHECK(rtpar::task_metrics(late.tasks[0]).max_relative_response == doctest::Approx(12.0 / 11));
  CHECK(rtpar::set_metrics(late).miss_ratio == doctest::Approx(1.0 / 3));
  CHECK(rtpar::set_metrics(late).max_relative_response == doctest::Approx(12.0 / 11));

  // In the JSON, after the existing keys.
  const std::string json = rtpar::simulation_json(late);
  CHECK(json.find("\"miss_ratio\"") != std::string::npos);
  CHECK(json.find("\"mean_relative_response\"") != std::string::npos);
  CHECK(json.find("\"deadline_ns\"") < json.find("\"preemptions\""));
}

namespace {

// two_task_set: heavy h (C = 30, L = 10, D = T = 20 µs; federated n = ⌈20/10⌉ = 2 cores, greedy
// R = 20/2 + 10 = 20 µs ≤ D) and light l (C = 5, D = T = 20 µs, a core of its own since 2 cores
// are h's). Federated needs 3 cores; at 1 and 2 a task is left unplaced.
rtpar::TaskSet two_task_set() {
  rtpar::TaskSet set;
  set.source = "<required>";
  set.system.cores = {0};
  set.tasks.push_back(spec("h", 30'000, 10'000, 20'000, 20'000));
  set.tasks.push_back(spec("l", 5'000, 5'000, 20'000, 20'000));
  rtpar::validate_taskset(set);
  return set;
}

}  // namespace

TEST_CASE("required cores: the smallest core count whose re-planned set meets R") {
  const rtpar::TaskSet set = two_task_set();
  rtpar::RequiredCoresOptions rc;
  const rtpar::RequiredCoresResult r =
      rtpar::required_cores(rtpar::PlannerKind::federated, set, {}, {}, rc);
  REQUIRE(r.cores.has_value());
  CHECK(*r.cores == 3);
  REQUIRE(r.steps.size() == 3);
  CHECK_FALSE(r.steps[0].placed);
  CHECK_FALSE(r.steps[1].placed);
  CHECK(r.steps[2].placed);
  CHECK(r.steps[2].miss_ratio == doctest::Approx(0.0));
  CHECK(r.steps[2].meets);

  rc.max_cores = 2;
  const rtpar::RequiredCoresResult none =
      rtpar::required_cores(rtpar::PlannerKind::federated, set, {}, {}, rc);
  CHECK_FALSE(none.cores.has_value());
  CHECK(rtpar::required_cores_text(none).find("none up to 2") != std::string::npos);
  CHECK(rtpar::required_cores_json(r).find("\"required_cores\": 3") != std::string::npos);
}

TEST_CASE("required cores: a complete plan the analysis refuses is simulated, and it decides") {
  // radar (examples/rejected.toml): segments 1 × 1 ms, 16 × 4 ms, 1 × 1 ms, T = D = 25 ms;
  // C = 66 ms. Decomposition places every strand on 1–3 cores but refuses the plan, and the
  // simulated job misses (a core holds > 25 ms of strands); on 4 cores it admits and meets.
  rtpar::TaskSet set;
  set.source = "<radar>";
  set.system.cores = {0, 1};
  rtpar::TaskSpec t = spec("radar", 66'000'000, 6'000'000, 25'000'000, 25'000'000);
  t.segments = {
      {1, Duration(1'000'000), {}}, {16, Duration(4'000'000), {}}, {1, Duration(1'000'000), {}}};
  set.tasks.push_back(t);
  rtpar::validate_taskset(set);
  rtpar::RequiredCoresOptions rc;
  const rtpar::RequiredCoresResult r =
      rtpar::required_cores(rtpar::PlannerKind::decomposition, set, {}, {}, rc);
  REQUIRE(r.cores.has_value());
  CHECK(*r.cores == 4);
  REQUIRE(r.steps.size() == 4);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(r.steps[i].placed);
    CHECK_FALSE(r.steps[i].plan_schedulable);
    CHECK(r.steps[i].miss_ratio == doctest::Approx(1.0));
    CHECK_FALSE(r.steps[i].meets);
  }
  CHECK(r.steps[3].plan_schedulable);
  CHECK(rtpar::required_cores_text(r).find("placed, refused") != std::string::npos);
  // With R = 1 every miss is tolerated: the refused 1-core plan already meets it.
  rc.miss_threshold = 1.0;
  CHECK(rtpar::required_cores(rtpar::PlannerKind::decomposition, set, {}, {}, rc).cores == 1);
}

TEST_CASE("required cores: a threshold outside [0, 1] is refused naming the flag") {
  const rtpar::TaskSet set = two_task_set();
  for (const double bad : {-0.1, 1.5}) {
    rtpar::RequiredCoresOptions rc;
    rc.miss_threshold = bad;
    try {
      rtpar::required_cores(rtpar::PlannerKind::federated, set, {}, {}, rc);
      FAIL("no error");
    } catch (const rtpar::InputError& e) {
      CHECK(std::string(e.what()).find("--miss-threshold") != std::string::npos);
    }
  }
}

TEST_CASE("simulate CLI: bad values exit 2 with a message naming the flag") {
  const std::string demo = std::string(RTPAR_SOURCE_DIR) + "/examples/demo.toml";
  const std::string profile =
      std::string(RTPAR_SOURCE_DIR) + "/experiments/data/rtpar-calibrate-2c-ovh.json";
  const std::pair<std::string, std::string> cases[] = {
      {"simulate " + demo + " --context-switch -5us", "--context-switch"},
      {"simulate " + demo + " --context-switch 5parsecs", "--context-switch"},
      {"simulate " + demo + " --required-cores --miss-threshold 1.5", "--miss-threshold"},
      {"simulate " + demo + " --required-cores --miss-threshold -0.5", "--miss-threshold"},
      {"simulate " + demo + " --required-cores --max-cores 0", "--max-cores"},
      {"simulate " + demo + " --overhead " + profile + " --overhead-statistic p42",
       "--overhead-statistic"},
      {"simulate " + demo + " --overhead-statistic sampled", "--overhead-statistic"},
      {"simulate " + demo + " --seed -3", "--seed"},
  };
  for (const auto& [args, flag] : cases) {
    CAPTURE(args);
    const auto [status, err] = run_cli(args);
    CHECK(status == 2);
    CHECK(err.find(flag) != std::string::npos);
  }
  // And good values run (exit 0: demo.toml meets its deadlines).
  CHECK(run_cli("simulate " + demo + " --overhead " + profile +
                " --overhead-statistic sampled --seed 3 --context-switch 5us")
            .first == 0);
  CHECK(run_cli("simulate " + demo + " --required-cores --miss-threshold 0.1").first == 0);
}
