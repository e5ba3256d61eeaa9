// strand_runner.hpp — the distributed dispatcher for strand-level plans (decomposition,
// fork-join-rta): one pinned thread per core the task's strands use, each running only its own
// strands, segment by segment, at the priority the plan gives them. docs/internals/dispatcher.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/rt_thread.hpp"
#include "runtime/runner.hpp"

namespace rtpar::detail {

// StrandRunner runs a task whose TaskPlan has segments. All threads, strand lists and records are
// created in the constructor; the job path allocates nothing and takes no lock.
class StrandRunner final : public Runner {
 public:
  // StrandRunner builds one member per distinct core of the plan's strands (master = the core of
  // segment 0, strand 0). Throws InputError when the task's kernel cannot run strand by strand.
  StrandRunner(const TaskSpec& task, const TaskPlan& placement, bool best_effort,
               std::int64_t record_capacity, RunControl& control, Endpoint* channels);
  ~StrandRunner() override;
  StrandRunner(const StrandRunner&) = delete;
  StrandRunner& operator=(const StrandRunner&) = delete;

  void start() override;
  void join() override;
  TaskRun result() override;
  [[nodiscard]] const TaskCounters& counters() const noexcept override { return counters_; }
  [[nodiscard]] std::exception_ptr failure() const noexcept override { return failure_; }

 private:
  // Member is one pinned thread and what it runs in each segment.
  struct Member {
    ThreadConfig config;
    std::vector<std::vector<std::int64_t>> strands;  // per segment: its strand indices
    std::vector<int> priority;                       // per segment: FIFO priority (0: none)
    std::unique_ptr<RtThread> thread;
    int current_priority = 0;
    int tid = 0;
  };
  // Gate is a segment's completion counter: participants arrive once per job, so the segment of
  // the n-th dispatched job is complete when `done` reaches participants · n (mod 2^32).
  struct alignas(64) Gate {
    std::atomic<std::uint32_t> done{0};
    std::uint32_t participants = 0;
  };

  void master_loop() noexcept;
  void worker_loop(std::size_t m) noexcept;
  // run_job runs member m's strands of dispatched job number n (1-based) released at `release`.
  void run_job(std::size_t m, std::uint32_t n, std::int64_t release, std::int64_t index) noexcept;
  // wait_gate blocks until segment s of job n is complete (spinning first per the wait policy).
  void wait_gate(std::size_t s, std::uint32_t n) noexcept;
  // set_priority switches the calling member's SCHED_FIFO priority (a system call, made only at
  // a segment boundary and only when the value changes).
  void set_priority(Member& member, int priority) noexcept;

  const TaskSpec& task_;
  const TaskPlan& placement_;
  RunControl& control_;
  Endpoint* channels_;
  bool best_effort_;
  std::vector<Member> members_;
  std::vector<Gate> gates_;
  alignas(64) std::atomic<std::uint32_t> dispatched_{0};  // jobs published to the workers
  std::atomic<std::uint32_t> exit_{0};
  std::int64_t release_ = 0;  // of the current job; written before dispatched_ is released
  std::int64_t index_ = 0;
  std::vector<JobRecord> records_;
  std::size_t records_used_ = 0;
  bool truncated_ = false;
  std::int64_t skipped_ = 0;
  TaskCounters counters_;
  std::exception_ptr failure_;
  std::atomic<bool> failed_{false};
  int master_tid_ = 0;
};

}  // namespace rtpar::detail
