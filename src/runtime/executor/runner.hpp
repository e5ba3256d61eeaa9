// runner.hpp — what the executor needs from one task at run time, whatever runs its jobs.
//
// Extension point (internal): TaskRunner runs a task's jobs on a fork/join team (federated and
// partitioned plans); StrandRunner runs them strand by strand as a strand-level plan places them
// (decomposition, fork-join-rta). make_runner picks one from the plan.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "rtpar/ext/kernel.hpp"
#include "rtpar/channel_set.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"
#include "runtime/executor/job_log.hpp"
#include "runtime/executor/release_loop.hpp"
#include "runtime/executor/run_control.hpp"

namespace rtpar::detail {

// BudgetRequest is the CPU-time budget a runner applies to its threads' jobs: the task's mode
// (model::effective_budget) and [system] budget_margin. What each thread is charged is the
// runner's business (docs/reliability.md, "Budgets").
struct BudgetRequest {
  BudgetMode mode = BudgetMode::none;
  std::int64_t margin_ns = 0;
};

// BudgetTally is what a runner's budgets recorded, written by the runner's threads (each its own
// part, or a job's closer) and read after join.
struct BudgetTally {
  std::int64_t charged_ns = 0;  // per job, of the busiest thread
  std::string note;             // why a requested budget was not applied ("" when it was)
  std::int64_t overruns = 0;
  std::int64_t max_overrun_ns = 0;
  std::int64_t demoted_ns = 0;
};

// Runner owns everything one task needs at run time, all allocated when it is constructed.
class Runner {
 public:
  virtual ~Runner() = default;
  // start creates the task's threads' master; it waits for control.go before its first release.
  virtual void start() = 0;
  // join waits for the master to finish its last job (after control.end_ns or a stop).
  virtual void join() = 0;
  // join_until is join with a deadline (absolute CLOCK_MONOTONIC ns): false when a thread of the
  // task is still in a job then — a hung job. A runner whose join_until failed must never be
  // destroyed (its threads still use it): the executor leaves it, and them, to the process's exit.
  virtual bool join_until(std::int64_t deadline_ns) = 0;
  // hung_result is the TaskRun of a task whose job never returned (join_until failed): what was
  // recorded before that job, the job itself as a record that started at its release and
  // finished at now_ns (a miss when it ran past its deadline), and its later releases before the
  // end of the run (and before now_ns: a run may end early) counted as skipped.
  virtual TaskRun hung_result(std::int64_t now_ns) = 0;
  // thread_ids are the Linux thread ids of every thread of the task (0 for one not started).
  [[nodiscard]] virtual std::vector<int> thread_ids() const = 0;
  // result moves the records out into a TaskRun (call after join).
  virtual TaskRun result() = 0;
  // counters are the live statistics for progress output.
  [[nodiscard]] virtual const TaskCounters& counters() const noexcept = 0;
  // failure is the exception the task's code threw, if any (the task stopped releasing then).
  [[nodiscard]] virtual std::exception_ptr failure() const noexcept = 0;
  // running_job is the word holding the job started (or published) last, -1 before the first:
  // the crash handler reads it to name the job that faulted (platform/crash_guard.hpp).
  [[nodiscard]] virtual const std::atomic<std::int64_t>& running_job() const noexcept = 0;
};

// RunnerBase is what every runner keeps: the task, its plan, the run's control words, the task's
// channel endpoint, its release loop, its job log and the exception its code threw.
class RunnerBase : public Runner {
 public:
  [[nodiscard]] const TaskCounters& counters() const noexcept final { return log_.counters(); }
  [[nodiscard]] std::exception_ptr failure() const noexcept final { return failure_; }
  [[nodiscard]] const std::atomic<std::int64_t>& running_job() const noexcept final {
    return running_;
  }

 protected:
  // RunnerBase preallocates `record_capacity` job records.
  RunnerBase(const TaskSpec& task, const TaskPlan& placement, std::int64_t record_capacity,
             RunControl& control, Endpoint* channels, BudgetRequest budget)
      : budget_(budget),
        task_(task),
        placement_(placement),
        control_(control),
        channels_(channels),
        releases_(task_, control),
        log_(record_capacity, task.deadline.count(), channels) {}

  TaskRun hung_result(std::int64_t now_ns) final {
    // acquire: pairs with the release store of running_ made when the hung job started (or was
    // published), after the previous job's record and skip count: they are visible here, and
    // nothing writes them since (the job never returned).
    const std::int64_t k = running_.load(std::memory_order_acquire);
    TaskRun run = log_.copy_run(task_, placement_, releases_.skipped());
    if (k >= 0) {
      const std::int64_t release = releases_.release(k);
      run.records.push_back(JobRecord{k, release, release, std::max(now_ns, release)});
      run.skipped += releases_.due_after(k, now_ns);
    }
    run.hung_job = k;
    take_budget(run);
    return run;
  }

  // take_budget copies the budget's mode and tally into a TaskRun (after join).
  void take_budget(TaskRun& run) const {
    run.budget = budget_.mode;
    run.budget_ns = tally_.charged_ns;
    run.budget_note = tally_.note;
    run.overruns = tally_.overruns;
    run.max_overrun_ns = tally_.max_overrun_ns;
    run.demoted_ns = tally_.demoted_ns;
  }

  BudgetRequest budget_;
  BudgetTally tally_;  // see BudgetTally: each runner says who writes which part
  // task_ and placement_ are copies: a hung task's threads outlive the caller's TaskSet and Plan
  // (executor.cpp keeps the runner alive, keep_alive.hpp), so they must not refer to them.
  const TaskSpec task_;
  const TaskPlan placement_;
  RunControl& control_;
  Endpoint* channels_;
  ReleaseLoop releases_;  // next() by one thread at a time (the master, or a job's closer)
  // running_ is the index of the job started (TaskRunner) or published (StrandRunner) last, -1
  // before the first: stored with release after the previous job's record and skip count, so
  // that hung_result can read them without a join.
  std::atomic<std::int64_t> running_{-1};
  JobLog log_;            // recorded by one thread at a time, read after join
  std::exception_ptr failure_;
};

// make_runner builds the runner the plan asks for: a StrandRunner when placement has segments,
// else a TaskRunner.
std::unique_ptr<Runner> make_runner(const TaskSpec& task, const TaskPlan& placement,
                                    bool best_effort, std::int64_t record_capacity,
                                    RunControl& control, Endpoint* channels,
                                    BudgetRequest budget = {});

}  // namespace rtpar::detail
