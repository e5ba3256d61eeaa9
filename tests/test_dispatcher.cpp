// test_dispatcher.cpp — StrandRunner, the executor for strand-level plans (decomposition,
// fork-join-rta): strands on their planned CPUs, offsets, segment barriers, no allocation.
#include <doctest/doctest.h>

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "counting_allocator.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/plan.hpp"

using namespace std::chrono_literals;

namespace {

// StrandEvent is what one strand execution saw.
struct StrandEvent {
  std::int64_t job = 0;
  std::int64_t release = 0;
  int segment = 0;
  std::int64_t strand = 0;
  int cpu = -1;
  std::int64_t start = 0;
  std::int64_t finish = 0;
  long allocations = 0;
};

// RecordingStrands burns `length` per strand and records each execution in preallocated slots.
class RecordingStrands final : public rtpar::Kernel {
 public:
  explicit RecordingStrands(rtpar::Duration length) : length_(length) {}
  void prepare(const rtpar::KernelSetup&) override { events_.resize(4096); }
  void run(rtpar::JobContext&) override {}
  bool run_strand(rtpar::JobContext& job, int segment, std::int64_t strand) override {
    StrandEvent e;
    e.job = job.index;
    e.release = job.release_ns;
    e.segment = segment;
    e.strand = strand;
    e.cpu = sched_getcpu();
    e.allocations = rtpar::test::thread_allocations();
    e.start = rtpar::monotonic_now();
    const std::int64_t until = e.start + length_.count();
    while (rtpar::monotonic_now() < until) {
    }
    e.finish = rtpar::monotonic_now();
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

}  // namespace

TEST_CASE("dispatcher: strands run on their cores, after their offsets and segment barriers") {
  std::vector<int> cpus = rtpar::online_cpus();
  REQUIRE(!cpus.empty());
  const int a = cpus.front();
  const int b = cpus.back();
  auto kernel = std::make_shared<RecordingStrands>(300us);

  rtpar::TaskSet set;
  set.source = "<test>";
  set.system.cores = cpus;
  rtpar::TaskSpec t;
  t.name = "strands";
  t.period = 10ms;
  t.deadline = 10ms;
  t.segments = {{1, 300us, {}}, {2, 300us, {}}, {1, 300us, {}}};
  t.work = 1200us;
  t.span = 900us;
  t.code = kernel;
  set.tasks = {t};

  // A decomposition-style plan: segment 1 released 2 ms after the job, segment 2 at 0 offset
  // (it waits for the barrier only), strands spread over both CPUs at different priorities.
  rtpar::Plan plan;
  plan.schedulable = true;
  plan.planner = rtpar::PlannerKind::decomposition;
  plan.cores = cpus;
  rtpar::TaskPlan tp;
  tp.name = "strands";
  tp.cores = cpus;
  tp.priority = 12;
  tp.segments = {
      rtpar::SegmentPlan{300'000, 0, 2'000'000, {{a, 12}}},
      rtpar::SegmentPlan{300'000, 2'000'000, 6'000'000, {{a, 11}, {b, 11}}},
      rtpar::SegmentPlan{300'000, 0, 10'000'000, {{b, 10}}},
  };
  plan.tasks = {tp};

  rtpar::RunConfig config;
  config.duration = 120ms;
  config.lock_memory = false;
  rtpar::RunReport report;
  try {
    report = rtpar::execute(set, plan, config);
  } catch (const rtpar::EnvironmentError&) {
    config.best_effort = true;  // no SCHED_FIFO here: the protocol is still checked
    report = rtpar::execute(set, plan, config);
  }
  REQUIRE(report.tasks.size() == 1);
  const auto& records = report.tasks[0].records;
  REQUIRE(records.size() >= 10);
  const std::vector<StrandEvent> events = kernel->events();
  CHECK(events.size() == records.size() * 4);

  for (const StrandEvent& e : events) {
    CAPTURE(e.job);
    CAPTURE(e.segment);
    const int planned = tp.segments[static_cast<std::size_t>(e.segment)]
                            .strands[static_cast<std::size_t>(e.strand)]
                            .core;
    CHECK(e.cpu == planned);
    CHECK(e.start >= e.release + tp.segments[static_cast<std::size_t>(e.segment)].offset_ns);
    // Barrier: every strand of the previous segment of the same job finished before this start.
    for (const StrandEvent& p : events) {
      if (p.job == e.job && p.segment == e.segment - 1) CHECK(p.finish <= e.start);
    }
  }
  // Records: each job's finish is after its last strand, jobs never overlap.
  for (std::size_t j = 0; j < records.size(); ++j) {
    std::int64_t last = 0;
    for (const StrandEvent& e : events) {
      if (e.job == records[j].index) last = std::max(last, e.finish);
    }
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
