// test_edf_executor.cpp — partitioned EDF at run time (runtime/edf_band.hpp): the executor must
// run jobs in deadline order on a shared core, not in release order.
#include <doctest/doctest.h>

#include <string>

#include "kernels/instantiate.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/system.hpp"
#include "rtpar/tools/planners.hpp"
#include "support/skip.hpp"

using namespace std::chrono_literals;

TEST_CASE("edf executor: a later release with an earlier deadline preempts (EDF order observed)") {
  // One core, both EDF. `long` is released at 0 with D = 40 ms and needs 10 ms; `urgent` is
  // released 2 ms later with D = 12 ms and needs 4 ms. Release (FIFO) order would finish long
  // first (≈ 10 ms) and urgent at ≈ 14 ms (a miss); EDF preempts long at 2 ms, so urgent finishes
  // first (≈ 6 ms) and long at ≈ 14 ms. Only the order of finishes is checked, per job pair.
  const int cpu = rtpar::online_cpus().back();
  const std::string text = "[system]\ncores = [" + std::to_string(cpu) +
                           "]\nplanner = \"partitioned\"\n"
                           "[[task]]\nname = \"long\"\nperiod = \"40ms\"\nwork = \"10ms\"\n"
                           "places = [" +
                           std::to_string(cpu) +
                           "]\n"
                           "[[task]]\nname = \"urgent\"\nperiod = \"40ms\"\ndeadline = \"12ms\"\n"
                           "phase = \"2ms\"\nwork = \"4ms\"\nplaces = [" +
                           std::to_string(cpu) + "]\n";
  rtpar::TaskSet set = rtpar::parse_taskset(text, "<edf>");
  rtpar::kernels::instantiate_kernels(set);  // the loader only describes the spin kernels
  const rtpar::Plan plan = rtpar::plan_taskset(set);
  REQUIRE(plan.schedulable);
  REQUIRE(plan.tasks[0].scheduling == rtpar::CoreScheduling::edf);
  rtpar::RunConfig config;
  config.duration = 400ms;
  config.lock_memory = false;
  rtpar::RunReport report;
  try {
    report = rtpar::execute(set, plan, config);
  } catch (const rtpar::EnvironmentError& e) {
    RTPAR_SKIP(std::string("SCHED_FIFO not permitted here; EDF order cannot be observed: ") +
               e.what());
  }
  const auto& lng = report.tasks[0].records;
  const auto& urg = report.tasks[1].records;
  REQUIRE(lng.size() >= 5);
  REQUIRE(urg.size() >= 5);
  const std::size_t n = std::min(lng.size(), urg.size());
  std::size_t edf_order = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (urg[j].finish_ns < lng[j].finish_ns) ++edf_order;
  }
  // Every pair in EDF order; allow one pair disturbed by the host (vCPU preemption) in ten.
  CHECK(edf_order * 10 >= n * 9);
  // Misses are not this case's claim: the fair server (50 ms per second for starved non-RT work,
  // e.g. the suite's other tests beside this one) and host steal stall both threads alike, which
  // keeps the order but can make a job late. A FIFO-order runtime would make every `urgent` job
  // miss; the order check above already catches that.
}

namespace {

// Burn consumes `amount` of the calling thread's CPU time per job, so preemption delays a job
// instead of shortening it.
class Burn final : public rtpar::Kernel {
 public:
  explicit Burn(rtpar::Duration amount) : amount_(amount) {}
  void run(rtpar::JobContext&) override {
    const std::int64_t until = rtpar::thread_cpu_now() + amount_.count();
    while (rtpar::thread_cpu_now() < until) {
    }
  }

 private:
  rtpar::Duration amount_;
};

// edf_task is one EDF task pinned to cpu by a hand-made partitioned plan entry.
rtpar::TaskSpec edf_task(const char* name, rtpar::Duration period, rtpar::Duration deadline,
                         rtpar::Duration phase, rtpar::Duration work) {
  rtpar::TaskSpec t;
  t.name = name;
  t.period = period;
  t.deadline = deadline;
  t.phase = phase;
  t.work = work;
  t.span = work;
  t.code = std::make_shared<Burn>(work);
  return t;
}

}  // namespace

TEST_CASE("edf executor: job-level priorities — the order flips with the absolute deadlines") {
  // One core, two EDF tasks (hand-made plan, independent of the planner):
  //   L: T = D = 30 ms, C = 16 ms, phase 0   → jobs [0, 30), [30, 60), ...
  //   S: T = D = 20 ms, C = 3 ms,  phase 1 ms → jobs [1, 21), [21, 41), [41, 61), ...
  // In each 60 ms hyperperiod two pairs of jobs overlap:
  //   L@0 (d = 30) with S@1  (d = 21): EDF preempts L, S finishes first;
  //   L@30 (d = 60) with S@41 (d = 61): EDF keeps L (it ends at ≈ 46), L finishes first.
  // Arrival (FIFO) order would finish L first in both pairs, any fixed priority would give the
  // same winner in both; only EDF flips. U = 16/30 + 3/20 ≈ 0.68, so no job misses under EDF.
  // Orders, not times, are compared: for every pair of jobs whose [release, finish] windows
  // overlap, the one with the earlier absolute deadline must finish first.
  const int cpu = rtpar::online_cpus().back();
  rtpar::TaskSet set;
  set.source = "<edf>";
  set.system.cores = {cpu};
  set.tasks = {edf_task("L", 30ms, 30ms, 0ms, 16ms), edf_task("S", 20ms, 20ms, 1ms, 3ms)};
  rtpar::Plan plan;
  plan.schedulable = true;
  plan.planner = rtpar::PlannerKind::partitioned;
  plan.cores = {cpu};
  for (const rtpar::TaskSpec& t : set.tasks) {
    rtpar::TaskPlan tp;
    tp.name = t.name;
    tp.cores = {cpu};
    tp.thread_cores = {cpu};
    tp.scheduling = rtpar::CoreScheduling::edf;
    tp.priority = 1;
    plan.tasks.push_back(tp);
  }
  rtpar::RunConfig config;
  config.duration = 600ms;
  config.lock_memory = false;
  rtpar::RunReport report;
  try {
    report = rtpar::execute(set, plan, config);
  } catch (const rtpar::EnvironmentError& e) {
    RTPAR_SKIP(std::string("SCHED_FIFO not permitted here; EDF order cannot be observed: ") +
               e.what());
  }
  const auto& lng = report.tasks[0].records;
  const auto& sht = report.tasks[1].records;
  REQUIRE(lng.size() >= 10);
  REQUIRE(sht.size() >= 15);
  int short_first = 0;  // overlapping pairs where S (earlier deadline) finished first, as required
  int long_first = 0;   // overlapping pairs where L (earlier deadline) finished first, as required
  int wrong = 0;
  for (const rtpar::JobRecord& l : lng) {
    for (const rtpar::JobRecord& s : sht) {
      const bool overlap = l.release_ns < s.finish_ns && s.release_ns < l.finish_ns;
      if (!overlap) continue;
      const std::int64_t dl = l.release_ns + 30'000'000;
      const std::int64_t ds = s.release_ns + 20'000'000;
      const bool ok = ds < dl ? s.finish_ns < l.finish_ns : l.finish_ns < s.finish_ns;
      if (!ok) {
        ++wrong;
      } else if (ds < dl) {
        ++short_first;
      } else {
        ++long_first;
      }
    }
  }
  CAPTURE(short_first);
  CAPTURE(long_first);
  CAPTURE(wrong);
  // Both orders must occur (this is what no fixed priority can do), and nearly every overlapping
  // pair must follow deadlines (one in ten may be disturbed by the host's vCPU preemption).
  CHECK(short_first >= 3);
  CHECK(long_first >= 3);
  CHECK(wrong * 10 <= short_first + long_first + wrong);
}
