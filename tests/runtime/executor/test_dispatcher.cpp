// test_dispatcher.cpp — StrandRunner, the executor for strand-level plans (decomposition,
// fork-join-rta): strands on their planned CPUs at their planned priorities, offsets, segment
// barriers, exactly-once execution, no allocation, members blocked between jobs, prompt stop.
#include <doctest/doctest.h>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <tuple>
#include <vector>

#include "support/counting_allocator.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/plan.hpp"
#include "support/skip.hpp"

using namespace std::chrono_literals;

namespace {

// StrandEvent is what one strand execution saw.
struct StrandEvent {
  std::int64_t job = 0;
  std::int64_t release = 0;
  int segment = 0;
  std::int64_t strand = 0;
  int cpu = -1;
  int tid = 0;
  int policy = -1;
  int priority = -1;
  std::int64_t start = 0;
  std::int64_t finish = 0;
  std::int64_t cpu_start = 0;   // thread CPU time at start
  std::int64_t cpu_finish = 0;  // thread CPU time at finish
  long allocations = 0;
};

// RecordingStrands burns `length` of wall time per strand and records each execution in
// preallocated slots (a fetch_add picks the slot: strands of one segment run concurrently).
class RecordingStrands final : public rtpar::Kernel {
 public:
  explicit RecordingStrands(rtpar::Duration length) : length_(length) {}
  void prepare(const rtpar::KernelSetup&) override { events_.resize(8192); }
  void run(rtpar::JobContext&) override {}
  bool run_strand(rtpar::JobContext& job, int segment, std::int64_t strand) override {
    StrandEvent e;
    e.job = job.index;
    e.release = job.release_ns;
    e.segment = segment;
    e.strand = strand;
    e.cpu = sched_getcpu();
    e.tid = static_cast<int>(::gettid());
    sched_param param{};
    pthread_getschedparam(pthread_self(), &e.policy, &param);
    e.priority = param.sched_priority;
    e.allocations = rtpar::test::thread_allocations();
    e.cpu_start = rtpar::thread_cpu_now();
    e.start = rtpar::monotonic_now();
    const std::int64_t until = e.start + length_.count();
    while (rtpar::monotonic_now() < until) {
    }
    e.finish = rtpar::monotonic_now();
    e.cpu_finish = rtpar::thread_cpu_now();
    const std::size_t slot = used_.fetch_add(1, std::memory_order_relaxed);
    if (slot < events_.size()) events_[slot] = e;
    return true;
  }
  [[nodiscard]] bool supports_strands() const override { return true; }
  std::vector<StrandEvent> events() const {
    return {events_.begin(),
            events_.begin() + static_cast<std::ptrdiff_t>(std::min(used_.load(), events_.size()))};
  }

 private:
  rtpar::Duration length_;
  std::vector<StrandEvent> events_;
  std::atomic<std::size_t> used_{0};
};

// Fixture is one task with a hand-made strand-level plan over the online CPUs.
struct Fixture {
  rtpar::TaskSet set;
  rtpar::Plan plan;
  std::shared_ptr<RecordingStrands> kernel;
};

Fixture make_fixture(rtpar::PlannerKind planner, std::vector<rtpar::SegmentPlan> segments,
                     rtpar::Duration period, rtpar::WaitPolicy wait, rtpar::Duration length) {
  Fixture f;
  f.kernel = std::make_shared<RecordingStrands>(length);
  f.set.source = "<test>";
  f.set.system.cores = rtpar::online_cpus();
  rtpar::TaskSpec t;
  t.name = "strands";
  t.period = period;
  t.deadline = period;
  t.wait = wait;
  for (const rtpar::SegmentPlan& s : segments) {
    t.segments.push_back({static_cast<std::int64_t>(s.strands.size()), length, {}});
    t.work += length * static_cast<std::int64_t>(s.strands.size());
    t.span += length;
  }
  t.code = f.kernel;
  f.set.tasks = {t};
  f.plan.schedulable = true;
  f.plan.planner = planner;
  f.plan.cores = f.set.system.cores;
  rtpar::TaskPlan tp;
  tp.name = "strands";
  tp.cores = f.set.system.cores;
  tp.priority = segments.front().strands.front().priority;
  tp.segments = std::move(segments);
  f.plan.tasks = {tp};
  return f;
}

// run executes with SCHED_FIFO when permitted, else best effort (the protocol is still checked;
// priorities are then not).
rtpar::RunReport run(const Fixture& f, rtpar::RunConfig config, bool& best_effort) {
  config.lock_memory = false;
  try {
    best_effort = false;
    return rtpar::execute(f.set, f.plan, config);
  } catch (const rtpar::EnvironmentError& e) {
    // The protocol is still checked (a failure there fails the case); the priorities are not,
    // so a passing case is reported skipped, with the reason.
    rtpar::test::mark_skipped(std::string("SCHED_FIFO not permitted (") + e.what() +
                              "); the protocol was checked best effort, priorities were not");
    best_effort = true;
    config.best_effort = true;
    return rtpar::execute(f.set, f.plan, config);
  }
}

// check_run checks everything a strand-level run must satisfy, whatever the plan.
void check_run(const Fixture& f, const rtpar::RunReport& report, bool best_effort) {
  const rtpar::TaskPlan& tp = f.plan.tasks[0];
  REQUIRE(report.tasks.size() == 1);
  const auto& records = report.tasks[0].records;
  REQUIRE(records.size() >= 10);
  // Deadlines are 5× the span or more, but misses are not this check's claim (the protocol is):
  // the fair server and host steal can still stall a job past its deadline on this VM. Most jobs
  // must meet theirs, or the strands are not running in parallel at all.
  CHECK(static_cast<std::size_t>(report.total_misses()) * 2 <= records.size());
  std::size_t strands_per_job = 0;
  for (const rtpar::SegmentPlan& s : tp.segments) strands_per_job += s.strands.size();
  const std::vector<StrandEvent> events = f.kernel->events();
  CHECK(events.size() == records.size() * strands_per_job);

  std::map<std::tuple<std::int64_t, int, std::int64_t>, int> runs;  // (job, seg, strand) → count
  for (const StrandEvent& e : events) {
    CAPTURE(e.job);
    CAPTURE(e.segment);
    CAPTURE(e.strand);
    ++runs[{e.job, e.segment, e.strand}];
    const rtpar::SegmentPlan& seg = tp.segments[static_cast<std::size_t>(e.segment)];
    const rtpar::StrandPlan& planned = seg.strands[static_cast<std::size_t>(e.strand)];
    CHECK(e.cpu == planned.core);
    if (!best_effort) {
      CHECK(e.policy == SCHED_FIFO);
      CHECK(e.priority == planned.priority);
    }
    CHECK(e.start >= e.release + seg.offset_ns);
    // Barrier: every strand of the previous segment of the same job finished before this start.
    for (const StrandEvent& p : events) {
      if (p.job == e.job && p.segment == e.segment - 1) CHECK(p.finish <= e.start);
    }
  }
  for (const auto& [key, count] : runs) CHECK(count == 1);
  CHECK(runs.size() == events.size());

  // Records: start at or after the release and before the first strand, finish after the last
  // strand, jobs never overlap.
  for (std::size_t j = 0; j < records.size(); ++j) {
    std::int64_t first = INT64_MAX;
    std::int64_t last = 0;
    for (const StrandEvent& e : events) {
      if (e.job != records[j].index) continue;
      first = std::min(first, e.start);
      last = std::max(last, e.finish);
    }
    CHECK(records[j].start_ns >= records[j].release_ns);
    CHECK(records[j].start_ns <= first);
    CHECK(records[j].finish_ns >= last);
    if (j > 0) CHECK(records[j].start_ns >= records[j - 1].finish_ns);
  }

  // No allocation on any member once the first job ran: per (segment, strand) — hence per
  // thread — the allocation counter seen by later jobs equals the one of job 1.
  for (const StrandEvent& e : events) {
    if (e.job < 1) continue;
    for (const StrandEvent& ref : events) {
      if (ref.job == 1 && ref.segment == e.segment && ref.strand == e.strand) {
        CHECK_MESSAGE(e.allocations == ref.allocations, "segment ", e.segment, " strand ", e.strand,
                      " allocated in job ", e.job);
      }
    }
  }

  // Members block between jobs: from the end of a thread's last strand of job j to the start of
  // its first strand of job j + 1 it uses far less CPU time than the wall time that passed (a
  // member spinning at SCHED_FIFO, or even at SCHED_OTHER on a quiet core, would use about all
  // of it). The gap includes at most one capped gate spin (one segment's length).
  std::map<int, std::vector<const StrandEvent*>> by_thread;
  for (const StrandEvent& e : events) by_thread[e.tid].push_back(&e);
  CHECK(by_thread.size() <= tp.cores.size());
  std::int64_t wall = 0;
  std::int64_t cpu = 0;
  for (auto& [tid, list] : by_thread) {
    std::sort(list.begin(), list.end(),
              [](const StrandEvent* x, const StrandEvent* y) { return x->start < y->start; });
    for (std::size_t k = 1; k < list.size(); ++k) {
      if (list[k]->job == list[k - 1]->job) continue;
      wall += list[k]->start - list[k - 1]->finish;
      cpu += list[k]->cpu_start - list[k - 1]->cpu_finish;
    }
  }
  REQUIRE(wall > 0);
  CAPTURE(wall);
  CAPTURE(cpu);
  CHECK(cpu * 4 < wall);
}

}  // namespace

TEST_CASE("dispatcher: decomposition plan — cores, priorities, offsets, barriers, no allocation") {
  const std::vector<int> cpus = rtpar::online_cpus();
  REQUIRE(!cpus.empty());
  const int a = cpus.front();
  const int b = cpus.back();
  // Segment 1 is released 2 ms after the job, segment 2 at offset 0 (it waits for the barrier
  // only); strands spread over both CPUs at different priorities, so members switch priority at
  // segment boundaries. D = T = 20 ms, span 0.9 ms.
  Fixture f =
      make_fixture(rtpar::PlannerKind::decomposition,
                   {
                       rtpar::SegmentPlan{300'000, 0, 2'000'000, {{a, 12}}},
                       rtpar::SegmentPlan{300'000, 2'000'000, 6'000'000, {{a, 11}, {b, 11}}},
                       rtpar::SegmentPlan{300'000, 0, 20'000'000, {{b, 10}}},
                   },
                   20ms, rtpar::WaitPolicy::block(), 300us);
  rtpar::RunConfig config;
  config.duration = 240ms;
  bool best_effort = false;
  const rtpar::RunReport report = run(f, config, best_effort);
  check_run(f, report, best_effort);
}

TEST_CASE("dispatcher: fork-join-rta plan — stages back to back, several strands per core, spin") {
  const std::vector<int> cpus = rtpar::online_cpus();
  REQUIRE(!cpus.empty());
  const int a = cpus.front();
  const int b = cpus.back();
  // Stages start when the previous one completed (offsets 0). Stage 1 has two strands on b: its
  // member runs them one after the other. Wait policy spin: members may spin at a gate inside a
  // job, never between jobs (check_run measures it). D = T = 15 ms, span ≈ 1.6 ms.
  Fixture f = make_fixture(rtpar::PlannerKind::fork_join_rta,
                           {
                               rtpar::SegmentPlan{400'000, 0, 0, {{a, 20}}},
                               rtpar::SegmentPlan{400'000, 0, 0, {{a, 21}, {b, 21}, {b, 21}}},
                               rtpar::SegmentPlan{400'000, 0, 0, {{b, 19}, {a, 20}}},
                           },
                           15ms, rtpar::WaitPolicy::spin(), 400us);
  rtpar::RunConfig config;
  config.duration = 200ms;
  bool best_effort = false;
  const rtpar::RunReport report = run(f, config, best_effort);
  check_run(f, report, best_effort);
  // Stage 1 on b: the member ran strands 1 and 2 sequentially (it is one thread).
  const std::vector<StrandEvent> events = f.kernel->events();
  for (const StrandEvent& x : events) {
    for (const StrandEvent& y : events) {
      if (x.job == y.job && x.segment == 1 && y.segment == 1 && x.strand == 1 && y.strand == 2) {
        CHECK(x.tid == y.tid);
        CHECK((x.finish <= y.start || y.finish <= x.start));
      }
    }
  }
}

TEST_CASE("dispatcher: a stop cancels the pending job at once, the running job completes") {
  const std::vector<int> cpus = rtpar::online_cpus();
  const int a = cpus.front();
  const int b = cpus.back();
  // T = 1 s; job 0's second segment is released at 100 ms, so job 0 ends at ≈ 100.2 ms and job 1
  // is published for 1 s. A SIGINT at 150 ms must cancel job 1 (its members sleep until their
  // releases) without waiting for it: the run returns long before 1 s.
  Fixture f = make_fixture(rtpar::PlannerKind::decomposition,
                           {
                               rtpar::SegmentPlan{200'000, 0, 1'000'000, {{a, 12}}},
                               rtpar::SegmentPlan{200'000, 100'000'000, 1'000'000'000, {{b, 11}}},
                           },
                           1s, rtpar::WaitPolicy::block(), 200us);
  rtpar::RunConfig config;
  config.duration = 10s;
  config.handle_signals = true;
  config.progress_interval = 1ms;
  bool raised = false;
  // The progress callback runs on the control thread inside the run's signal scope, so raise()
  // runs the stop-signal handler there (platform/stop_signals.hpp), which ends the control loop.
  config.progress = [&raised](std::int64_t elapsed, std::int64_t, std::int64_t) {
    if (!raised && elapsed >= 150'000'000) {
      raised = true;
      raise(SIGINT);
    }
  };
  const std::int64_t began = rtpar::monotonic_now();
  bool best_effort = false;
  const rtpar::RunReport report = run(f, config, best_effort);
  const std::int64_t took = rtpar::monotonic_now() - began;
  CHECK(report.interrupted);
  REQUIRE(report.tasks.size() == 1);
  CHECK(report.tasks[0].records.size() == 1);  // job 0 ran to its end, job 1 never started
  CHECK(f.kernel->events().size() == 2);
  CHECK(took < 900'000'000);
}

TEST_CASE("dispatcher: a kernel that cannot run strands is refused before any thread starts") {
  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = rtpar::online_cpus();
  set.tasks = {};
  rtpar::TaskSpec t;
  t.name = "plain";
  t.period = 10ms;
  t.deadline = 10ms;
  t.segments = {{2, 1ms, {}}};
  t.work = 2ms;
  t.span = 1ms;
  struct Plain final : rtpar::Kernel {
    void run(rtpar::JobContext&) override {}
  };
  t.code = std::make_shared<Plain>();
  set.tasks = {t};
  rtpar::Plan plan;
  plan.schedulable = true;
  plan.planner = rtpar::PlannerKind::fork_join_rta;
  plan.cores = set.system.cores;
  rtpar::TaskPlan tp;
  tp.name = "plain";
  tp.cores = {set.system.cores.front()};
  tp.priority = 10;
  tp.segments = {rtpar::SegmentPlan{
      1'000'000, 0, 2'000'000, {{set.system.cores.front(), 10}, {set.system.cores.front(), 10}}}};
  plan.tasks = {tp};
  rtpar::RunConfig config;
  config.duration = 20ms;
  config.best_effort = true;
  config.lock_memory = false;
  CHECK_THROWS_WITH_AS(rtpar::execute(set, plan, config),
                       doctest::Contains("cannot run strand by strand"), rtpar::InputError);
}

TEST_CASE("dispatcher: a strand planned on a CPU this process cannot use is refused") {
  const std::vector<int> cpus = rtpar::online_cpus();
  Fixture f = make_fixture(rtpar::PlannerKind::fork_join_rta,
                           {rtpar::SegmentPlan{100'000, 0, 0, {{cpus.front(), 10}, {1023, 10}}}},
                           10ms, rtpar::WaitPolicy::block(), 100us);
  rtpar::RunConfig config;
  config.duration = 20ms;
  config.best_effort = true;
  config.lock_memory = false;
  CHECK_THROWS_WITH_AS(rtpar::execute(f.set, f.plan, config),
                       doctest::Contains("planned on CPU 1023"), rtpar::InputError);
}
