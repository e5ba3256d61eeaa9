// test_plan_sim.cpp — the plan simulator (src/sim, rtpar/tools/simulate.hpp) on hand-made plans whose
// schedules are worked out by hand in the comments (times in ns; every task set is tiny).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "rtpar/error.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/simulate.hpp"

using rtpar::CoreScheduling;
using rtpar::Duration;
using rtpar::Plan;
using rtpar::SegmentPlan;
using rtpar::SimJob;
using rtpar::SimOptions;
using rtpar::SimResult;
using rtpar::StrandPlan;
using rtpar::TaskPlan;
using rtpar::TaskSet;
using rtpar::TaskSpec;

namespace {

// spec builds a TaskSpec (C, L, D, T, phase) in ns.
TaskSpec spec(std::string name, std::int64_t c, std::int64_t l, std::int64_t d, std::int64_t t,
              std::int64_t phase = 0) {
  TaskSpec s;
  s.name = std::move(name);
  s.work = Duration(c);
  s.span = Duration(l);
  s.deadline = Duration(d);
  s.period = Duration(t);
  s.phase = Duration(phase);
  return s;
}

// on places a task on `cores` (one team thread each) at `priority`.
TaskPlan on(const TaskSpec& s, std::vector<int> cores, int priority,
            CoreScheduling sched = CoreScheduling::fixed_priority) {
  TaskPlan tp;
  tp.name = s.name;
  tp.cores = std::move(cores);
  tp.priority = priority;
  tp.scheduling = sched;
  return tp;
}

// segment is a SegmentPlan of strands (core, priority) of `length`.
SegmentPlan segment(std::int64_t length, std::vector<StrandPlan> strands, std::int64_t offset = 0,
                    std::int64_t deadline = 0) {
  SegmentPlan s;
  s.length_ns = length;
  s.offset_ns = offset;
  s.deadline_ns = deadline;
  s.strands = std::move(strands);
  return s;
}

struct Case {
  TaskSet set;
  Plan plan;
  void add(TaskSpec s, TaskPlan tp) {
    set.tasks.push_back(std::move(s));
    plan.tasks.push_back(std::move(tp));
  }
  SimResult run(std::int64_t horizon = 0) {
    set.source = "<memory>";
    plan.schedulable = true;
    SimOptions o;
    if (horizon > 0) o.horizon_ns = horizon;
    o.record_jobs = true;
    return rtpar::simulate_plan(plan, set, o);
  }
};

// finishes lists (release, finish) of a task's recorded jobs.
std::vector<std::pair<std::int64_t, std::int64_t>> finishes(const SimResult& r, std::size_t i) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (const SimJob& j : r.tasks[i].jobs_log) out.emplace_back(j.release_ns, j.finish_ns);
  return out;
}

using Jobs = std::vector<std::pair<std::int64_t, std::int64_t>>;

}  // namespace

TEST_CASE("sim: fixed-priority preemption on one core") {
  // hi (C=2, T=D=5, prio 2) and lo (C=4, T=D=10, prio 1) on core 0; H = 10.
  // 0–2 hi, 2–5 lo (3 of 4), 5 hi preempts: 5–7 hi, 7–8 lo done → lo R = 8.
  Case c;
  c.add(spec("hi", 2, 2, 5, 5), on(spec("hi", 2, 2, 5, 5), {0}, 2));
  c.add(spec("lo", 4, 4, 10, 10), on(spec("lo", 4, 4, 10, 10), {0}, 1));
  const SimResult r = c.run();
  CHECK(r.horizon_ns == 10);
  CHECK(finishes(r, 0) == Jobs{{0, 2}, {5, 7}});
  CHECK(finishes(r, 1) == Jobs{{0, 8}});
  CHECK(r.tasks[1].max_response_ns == 8);
  CHECK(r.misses == 0);

  // Swap the priorities: lo runs 0–4, hi 4–6 (R = 6 > D = 5: a miss), hi's second job 6–8.
  c.plan.tasks[0].priority = 1;
  c.plan.tasks[1].priority = 2;
  const SimResult swapped = c.run();
  CHECK(finishes(swapped, 0) == Jobs{{0, 6}, {5, 8}});
  CHECK(swapped.tasks[0].misses == 1);
  CHECK(swapped.misses == 1);
}

TEST_CASE("sim: equal priorities do not preempt each other (SCHED_FIFO)") {
  // a (C=3, T=10) from 0 and b (C=2, T=10, phase 1), both priority 5 on core 0: b waits for a.
  Case c;
  c.add(spec("a", 3, 3, 10, 10), on(spec("a", 3, 3, 10, 10), {0}, 5));
  c.add(spec("b", 2, 2, 10, 10, 1), on(spec("b", 2, 2, 10, 10, 1), {0}, 5));
  const SimResult r = c.run(10);
  CHECK(finishes(r, 0) == Jobs{{0, 3}});
  CHECK(finishes(r, 1) == Jobs{{1, 5}});
}

TEST_CASE("sim: EDF cores order by absolute deadline, above every fixed priority") {
  // x (C=2, D=T=6) and y (C=2, D=3, T=6, phase 1), both EDF on core 0. At 1, y's deadline 4 is
  // before x's 6: y preempts, runs 1–3; x resumes 3–4. R_x = 4, R_y = 2.
  Case c;
  c.add(spec("x", 2, 2, 6, 6), on(spec("x", 2, 2, 6, 6), {0}, 0, CoreScheduling::edf));
  c.add(spec("y", 2, 2, 3, 6, 1), on(spec("y", 2, 2, 3, 6, 1), {0}, 0, CoreScheduling::edf));
  // f at SCHED_FIFO 99 on the same core still waits for the EDF band: runs 4–5.
  c.add(spec("f", 1, 1, 6, 6), on(spec("f", 1, 1, 6, 6), {0}, 99));
  const SimResult r = c.run(6);
  CHECK(finishes(r, 0) == Jobs{{0, 4}});
  CHECK(finishes(r, 1) == Jobs{{1, 3}});
  CHECK(finishes(r, 2) == Jobs{{0, 5}});
}

TEST_CASE("sim: decomposition offsets delay a segment past its predecessor") {
  // One task, D = T = 10: segment 0 (2 ns on core 0), segment 1 (1 ns on core 0, offset 5).
  // Segment 0 is done at 2, but segment 1 waits for its release at 5 → done at 6.
  Case c;
  TaskPlan tp = on(spec("d", 3, 3, 10, 10), {0}, 0);
  tp.segments = {segment(2, {{0, 10}}, 0, 4), segment(1, {{0, 9}}, 5, 10)};
  c.add(spec("d", 3, 3, 10, 10), tp);
  CHECK(finishes(c.run(10), 0) == Jobs{{0, 6}});

  // With offset 1 instead, precedence decides: segment 1 starts when segment 0 ends (2) → 3.
  c.plan.tasks[0].segments[1].offset_ns = 1;
  CHECK(finishes(c.run(10), 0) == Jobs{{0, 3}});

  // Strand priorities apply per segment: a task "m" (C=2, prio 5) released at 1 on core 0 runs
  // between the segments only if it outranks segment 1 (prio 9): it does not, so it runs 3–5.
  c.add(spec("m", 2, 2, 10, 10, 1), on(spec("m", 2, 2, 10, 10, 1), {0}, 5));
  const SimResult r = c.run(10);
  CHECK(finishes(r, 0) == Jobs{{0, 3}});
  CHECK(finishes(r, 1) == Jobs{{1, 5}});
  // With segment 1 lowered to priority 4, "m" runs between the segments: 0–2 segment 0
  // (priority 10 > m's 5 when m arrives at 1), 2–4 m (5 > 4), 4–5 segment 1.
  c.plan.tasks[0].segments[1].strands[0].priority = 4;
  const SimResult r2 = c.run(10);
  CHECK(finishes(r2, 0) == Jobs{{0, 5}});
  CHECK(finishes(r2, 1) == Jobs{{1, 4}});
}

TEST_CASE("sim: a barrier waits for the slowest strand of the segment") {
  // fj: segment 0 = 2 strands of 3 on cores 0 and 1; segment 1 = 1 strand of 1 on core 0;
  // hog (C=2, prio 50) on core 1 delays the core-1 strand to 2–5, so segment 1 runs 5–6.
  Case c;
  TaskPlan fj = on(spec("fj", 7, 4, 10, 10), {0, 1}, 0);
  fj.segments = {segment(3, {{0, 10}, {1, 10}}), segment(1, {{0, 10}})};
  c.add(spec("fj", 7, 4, 10, 10), fj);
  c.add(spec("hog", 2, 2, 20, 20), on(spec("hog", 2, 2, 20, 20), {1}, 50));
  const SimResult r = c.run(10);
  CHECK(finishes(r, 0) == Jobs{{0, 6}});
  CHECK(finishes(r, 1) == Jobs{{0, 2}});
  // Two strands of one segment on one core run back to back in the core's one thread.
  c.plan.tasks[0].segments[0].strands[1].core = 0;
  CHECK(finishes(c.run(10), 0) == Jobs{{0, 7}});
}

TEST_CASE("sim: a structure-less heavy job takes (C−L)/n + L on n dedicated cores") {
  // C = 12, L = 2 on 5 cores: 10 units of 1 (≤ 8 per thread, ≤ L), taken before the chain:
  // 0–1 and 1–2 all five threads run units, the chain runs 2–4: R = 4 = 2 + 10/5, the greedy
  // bound (the chain starts only when no unit is left).
  Case c;
  c.add(spec("h", 12, 2, 5, 5), on(spec("h", 12, 2, 5, 5), {0, 1, 2, 3, 4}, 10));
  CHECK(finishes(c.run(5), 0) == Jobs{{0, 4}});
  // C = 16, L = 2: 14 units; 0–1 five, 1–2 five, 2–3 four units plus the chain 2–4: R = 4 ≤ 4.8.
  c.set.tasks[0].work = Duration(16);
  CHECK(finishes(c.run(5), 0) == Jobs{{0, 4}});
  // One thread runs everything in sequence: R = C.
  c.set.tasks[0] = spec("h", 12, 2, 20, 20);
  c.plan.tasks[0].cores = {3};
  CHECK(finishes(c.run(20), 0) == Jobs{{0, 12}});
}

TEST_CASE("sim: segments split over a team in static blocks") {
  // Segments 1×1, 5×2, 1×1 on 2 threads: the 5 strands split 3 + 2 (parallel_for_static),
  // so the job takes 1 + 3·2 + 1 = 8.
  Case c;
  TaskSpec s = spec("seg", 12, 4, 10, 10);
  s.segments = {{1, Duration(1), {}}, {5, Duration(2), {}}, {1, Duration(1), {}}};
  c.add(s, on(s, {0, 1}, 10));
  CHECK(finishes(c.run(10), 0) == Jobs{{0, 8}});
  // partitioned: thread_cores puts both team threads on core 0: everything sequential, R = 12.
  c.plan.tasks[0].thread_cores = {0, 0};
  const SimResult r = c.run(10);
  CHECK(finishes(r, 0) == Jobs{{0, 12}});
  CHECK(r.tasks[0].misses == 1);
}

TEST_CASE("sim: an explicit DAG is list-scheduled on the team") {
  // a(1) → {b(2), c(3)} → d(1) on 2 threads: a 0–1, b 1–3 and c 1–4, d 4–5.
  Case c;
  TaskSpec s = spec("dag", 7, 5, 10, 10);
  rtpar::DagSpec dag;
  dag.nodes = {{"a", Duration(1), {}, {}},
               {"b", Duration(2), {0}, {}},
               {"c", Duration(3), {0}, {}},
               {"d", Duration(1), {1, 2}, {}}};
  s.dag = dag;
  c.add(s, on(s, {0, 1}, 10));
  CHECK(finishes(c.run(10), 0) == Jobs{{0, 5}});
}

TEST_CASE("sim: overrun policies queue or skip late releases") {
  // C = 6 > D = T = 4 on one core; releases at 0, 4, 8 (horizon 12); the run stops at 12 + 4.
  Case c;
  c.add(spec("late", 6, 6, 4, 4), on(spec("late", 6, 6, 4, 4), {0}, 10));
  // queue: 0–6, 6–12, 12–18 — the third is unfinished at 16, past its deadline 12.
  SimResult q = c.run(12);
  CHECK(finishes(q, 0) == Jobs{{0, 6}, {4, 12}, {8, -1}});
  CHECK(q.tasks[0].jobs == 3);
  CHECK(q.tasks[0].completed == 2);
  CHECK(q.tasks[0].misses == 3);
  CHECK(q.end_ns == 16);
  // skip: 0–6; the release at 4 passes while it runs and is dropped; 8–14.
  c.set.tasks[0].overrun = rtpar::OverrunPolicy::skip;
  SimResult s = c.run(12);
  CHECK(finishes(s, 0) == Jobs{{0, 6}, {8, 14}});
  CHECK(s.tasks[0].skipped == 1);
  CHECK(s.tasks[0].misses == 2);
  CHECK(s.end_ns == 14);
}

TEST_CASE("sim: default horizon is the hyperperiod, or max phase + 2H with phases") {
  TaskSet set;
  set.tasks = {spec("a", 1, 1, 4, 4), spec("b", 1, 1, 6, 6)};
  CHECK(rtpar::default_sim_horizon(set, 1000).horizon_ns == 12);
  CHECK_FALSE(rtpar::default_sim_horizon(set, 1000).capped);
  set.tasks[1].phase = Duration(3);
  CHECK(rtpar::default_sim_horizon(set, 1000).horizon_ns == 3 + 24);
  // Capped, but never below max phase + longest period.
  const rtpar::SimHorizon capped = rtpar::default_sim_horizon(set, 5);
  CHECK(capped.capped);
  CHECK(capped.horizon_ns == 9);
  // Co-prime large periods: H overflows any cap without overflowing the arithmetic.
  set.tasks = {spec("p", 1, 1, 1'000'000'007, 1'000'000'007),
               spec("q", 1, 1, 998'244'353, 998'244'353),
               spec("r", 1, 1, 999'999'937, 999'999'937)};
  const rtpar::SimHorizon big = rtpar::default_sim_horizon(set, 10'000'000'000);
  CHECK(big.capped);
  CHECK(big.horizon_ns == 10'000'000'000);
}

TEST_CASE("sim: unplaced tasks are reported, mismatched plans rejected") {
  Case c;
  c.add(spec("a", 1, 1, 4, 4), on(spec("a", 1, 1, 4, 4), {0}, 1));
  c.add(spec("b", 1, 1, 4, 4), on(spec("b", 1, 1, 4, 4), {}, 0));
  const SimResult r = c.run();
  CHECK(r.tasks[0].simulated);
  CHECK_FALSE(r.tasks[1].simulated);
  CHECK(r.tasks[1].jobs == 0);
  c.plan.tasks[1].name = "zzz";
  CHECK_THROWS_AS(c.run(), rtpar::InputError);
  c.plan.tasks.pop_back();
  CHECK_THROWS_AS(c.run(), rtpar::InputError);
}

TEST_CASE("sim: output documents") {
  Case c;
  c.add(spec("a", 2, 2, 5, 5), on(spec("a", 2, 2, 5, 5), {0}, 2));
  c.add(spec("b", 1, 1, 4, 4), on(spec("b", 1, 1, 4, 4), {}, 0));
  const SimResult r = c.run();
  const std::string json = rtpar::simulation_json(r);
  CHECK(json.find("\"horizon_ns\": 20") != std::string::npos);
  CHECK(json.find("\"max_response_ns\": 2") != std::string::npos);
  const std::string table = rtpar::simulation_table(r);
  CHECK(table.find("not placed") != std::string::npos);
  CHECK(table.find("0 deadline misses") != std::string::npos);
}
