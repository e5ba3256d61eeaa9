// strand_runner.hpp — the distributed dispatcher for strand-level plans (decomposition,
// fork-join-rta): one pinned thread per core the task's strands use, each running only its own
// strands, segment by segment, at the priority the plan gives them, each timing its own releases.
// docs/internals/dispatcher.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "platform/cpu_budget.hpp"
#include "platform/rt_thread.hpp"
#include "runtime/executor/runner.hpp"
#include "runtime/executor/thread_trace.hpp"

namespace rtpar::detail {

// StrandRunner's dispatch word job_ = (seq << kJobSeqShift) | state (strand_runner.cpp,
// docs/internals/dispatcher.md). seq counts publications mod 2^30.
inline constexpr std::uint32_t kJobPending = 0;    // published; no member has committed yet
inline constexpr std::uint32_t kJobRunning = 1;    // committed: every member runs the job
inline constexpr std::uint32_t kJobStopped = 2;    // cancelled or no job left: every member leaves
inline constexpr std::uint32_t kJobStateMask = 3;  // the state bits
inline constexpr std::uint32_t kJobSeqShift = 2;   // seq sits above the state bits
inline constexpr std::uint32_t kNoJobSeq = 0;      // job_'s initial seq; the first job is 1
static_assert(kJobStopped <= kJobStateMask && (kJobStateMask >> kJobSeqShift) == 0);
// StrandRunner::Gate::done counts arrivals cumulatively, one per participant and job run.
inline constexpr std::uint32_t kGateArrival = 1;

// StrandRunner runs a task whose TaskPlan has segments. All threads, strand lists and records are
// created in the constructor; the job path allocates nothing and takes no lock.
class StrandRunner final : public RunnerBase {
 public:
  // StrandRunner builds one member per distinct core of the plan's strands (master = the core of
  // segment 0, strand 0). Throws InputError when the task's kernel cannot run strand by strand or
  // the plan has a segment without strands.
  // With a budget, each member measures its part of every job against what the plan charges on
  // its core: its strands' lengths, plus the spin its gate waits may take.
  StrandRunner(const TaskSpec& task, const TaskPlan& placement, bool best_effort,
               std::int64_t record_capacity, RunControl& control, Endpoint* channels,
               BudgetRequest budget = {});
  ~StrandRunner() override;
  StrandRunner(const StrandRunner&) = delete;
  StrandRunner& operator=(const StrandRunner&) = delete;

  // start creates the master; it waits for control.go, then publishes the first job.
  void start() override;
  // join waits until every member left (after control.end_ns or a stop) and the last job closed.
  void join() override;
  bool join_until(std::int64_t deadline_ns) override;
  TaskRun result() override;
  [[nodiscard]] std::vector<int> thread_ids() const override;

 private:
  // Member is one pinned thread and what it runs in each segment.
  struct Member {
    ThreadConfig config;
    std::vector<std::vector<std::int64_t>> strands;  // per segment: its strand indices
    std::vector<int> priority;                       // per segment: FIFO priority (0: none)
    std::size_t first_segment = 0;                   // first segment with strands of its own
    std::size_t last_segment = 0;                    // last segment with strands of its own
    std::unique_ptr<RtThread> thread;
    int current_priority = 0;
    // charged_ns is the member's budget per job: Σ over its segments of strands × length, plus
    // the longest spin of each gate it waits for (docs/reliability.md, "Budgets").
    std::int64_t charged_ns = 0;
    // budget is the member's CpuBudget while its thread runs (null without a budget); used and
    // destroyed by that thread only. demoted_ns is what it recorded, read after join.
    CpuBudget* budget = nullptr;
    std::int64_t demoted_ns = 0;
    // trace is what the member's thread executed (its segments, gate waits and overruns), added
    // by that thread only and read after join.
    ThreadTrace trace{0, 0};
  };
  // Gate is a segment's completion counter: participants arrive (kGateArrival) once per job, so
  // the segment of the n-th job run is complete when `done` reaches participants · n (mod 2^32).
  struct alignas(64) Gate {
    std::atomic<std::uint32_t> done{0};
    std::uint32_t participants = 0;
    std::int64_t spin_cap_ns = 0;  // WaitKind::spin: longest spin before blocking (see .cpp)
  };

  // member_body makes member m's budget (when the task has one) and runs member_loop.
  void member_body(std::size_t m) noexcept;
  // member_loop is every member's life: wait (blocked) for a published job, run it, repeat until
  // the state says stopped.
  void member_loop(std::size_t m) noexcept;
  // master_loop waits for control.go, publishes the first job, then is member 0.
  void master_loop() noexcept;
  // run_job commits member m to the published job `seq` (the job_ number) and runs its strands;
  // returns false when the job was cancelled by a stop. `runs` is the job's 1-based number among
  // the jobs run, the same on every member (every committed job is run by all of them).
  bool run_job(std::size_t m, std::uint32_t seq, std::uint32_t runs) noexcept;
  // close_job records job `seq` (the caller's arrival completed its last gate) and publishes the
  // next job, or the stopped state.
  void close_job(std::uint32_t seq) noexcept;
  // publish makes job `seq` with release index k current (or stops when none may be released).
  void publish(std::uint32_t seq, std::int64_t k) noexcept;
  // stop_all sets the stopped state (no job is pending or running) and wakes every member.
  void stop_all(std::uint32_t seq) noexcept;
  // wait_gate blocks until segment s of job `runs` is complete (spinning first per the wait
  // policy).
  void wait_gate(std::size_t s, std::uint32_t runs) noexcept;
  // set_priority switches the calling member's SCHED_FIFO priority (a system call, made only at
  // a segment boundary and only when the value changes).
  void set_priority(Member& member, int priority) noexcept;

  bool best_effort_;
  std::vector<Member> members_;
  std::vector<Gate> gates_;
  // job_ is the dispatch state: (seq << kJobSeqShift) | kJobPending / kJobRunning / kJobStopped
  // (see .cpp); initially (kNoJobSeq, pending): nothing published, members wait.
  alignas(64) std::atomic<std::uint32_t> job_{(kNoJobSeq << kJobSeqShift) | kJobPending};
  std::atomic<std::int64_t> job_start_{0};  // first commit time of the running job
  // job_overrun_ is the largest overrun of the running job's members (0: none); written by the
  // members before their last gate arrival, read and cleared by the closer (invariant 4).
  std::atomic<std::int64_t> job_overrun_{0};
  std::int64_t release_ = 0;  // of the published job; written before job_ is released
  std::int64_t index_ = 0;
  bool started_ = false;
  std::atomic<bool> failed_{false};
  std::vector<int> tids_;  // of every member, filled by join
};

}  // namespace rtpar::detail
