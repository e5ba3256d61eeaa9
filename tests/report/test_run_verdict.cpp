// test_run_verdict.cpp — run_verdict (src/report/run_verdict.hpp) on hand-made runs: a kept
// promise, each kind of broken one (miss, response over the bound, hold overrun) with the causes
// the run shows (release latency with the calibrate hint, host stall, budget overrun), and a
// best-effort run, which promises nothing.
#include <doctest/doctest.h>

#include <string>

#include "report/run_verdict.hpp"
#include "rtpar/report.hpp"

namespace {

// verdict_run is one task 't' (bound 1000 ns, deadline 2000 ns) with jobs of the given
// (release, start, finish) times.
rtpar::RunReport verdict_run(std::initializer_list<rtpar::JobRecord> jobs) {
  rtpar::RunReport r;
  rtpar::TaskPlan tp;
  tp.name = "t";
  tp.response_bound_ns = 1000;
  r.plan.tasks.push_back(tp);
  rtpar::TaskRun run;
  run.name = "t";
  run.deadline_ns = 2000;
  run.period_ns = 10'000;
  run.records = jobs;
  r.tasks.push_back(run);
  return r;
}

// contains says whether `text` contains `part`.
bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("run_verdict: a run within every bound keeps its promise") {
  const auto v =
      rtpar::report::run_verdict(verdict_run({{0, 0, 0, 900}, {1, 10'000, 10'000, 11'000}}));
  CHECK_FALSE(v.broken);
  CHECK(v.jobs == 2);
  CHECK(v.over_bound == 0);  // 1000 is the bound itself: within
  CHECK(v.cause.empty());
  CHECK(v.line == "verdict: promise kept: 2 jobs, 0 misses, every response within its bound\n");
}

TEST_CASE("run_verdict: a job over its bound that started late names release latency") {
  // Over by 500 ns, started 600 ns late: lateness covers the excess.
  auto r = verdict_run({{0, 0, 600, 1500}, {1, 10'000, 10'000, 10'900}});
  auto v = rtpar::report::run_verdict(r);
  CHECK(v.broken);
  CHECK(v.over_bound == 1);
  CHECK(v.misses == 0);
  CHECK(contains(v.cause, "release latency: 1 of the 1 jobs"));
  CHECK(contains(v.cause, "rtpar calibrate"));  // no profile charged: the hint
  CHECK(contains(v.line, "verdict: PROMISE BROKEN: 1 of 2 jobs over their response bound"));
  r.overhead_profile = "/var/lib/rtpar/overhead.json";
  v = rtpar::report::run_verdict(r);
  CHECK_FALSE(contains(v.cause, "rtpar calibrate"));  // charged, and still late: no hint
}

TEST_CASE("run_verdict: misses with host steal time and a budget overrun name both causes") {
  auto r = verdict_run({{0, 0, 0, 2500}});  // finished after its 2000 ns deadline
  r.host_steal_ns = 20'000'000;
  r.tasks[0].overruns = 3;
  const auto v = rtpar::report::run_verdict(r);
  CHECK(v.broken);
  CHECK(v.misses == 1);
  CHECK(contains(v.cause, "overrun: task 't' ×3"));
  CHECK(contains(v.cause, "host stall: the hypervisor stole 20ms"));
  CHECK_FALSE(contains(v.cause, "release latency"));  // it started on time
  const auto json = rtpar::report::run_verdict_json(v);
  CHECK(json.at("promise_kept") == false);
  CHECK(json.at("misses") == 1);
}

TEST_CASE("run_verdict: an unidentified cause is said, a best-effort run promises nothing") {
  auto r = verdict_run({{0, 0, 0, 2500}});
  auto v = rtpar::report::run_verdict(r);
  CHECK(contains(v.cause, "not identified"));
  r.best_effort = true;
  v = rtpar::report::run_verdict(r);
  CHECK_FALSE(v.promised);
  CHECK_FALSE(v.broken);
  CHECK(contains(v.line, "no real-time promise (--best-effort)"));
  CHECK(rtpar::report::run_verdict_json(v).at("promised") == false);
}
