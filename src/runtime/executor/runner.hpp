// runner.hpp — what the executor needs from one task at run time, whatever runs its jobs.
//
// Extension point (internal): TaskRunner runs a task's jobs on a fork/join team (federated and
// partitioned plans); StrandRunner runs them strand by strand as a strand-level plan places them
// (decomposition, fork-join-rta). make_runner picks one from the plan.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>

#include "rtpar/ext/kernel.hpp"
#include "rtpar/channel_set.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"
#include "runtime/executor/job_log.hpp"
#include "runtime/executor/release_loop.hpp"
#include "runtime/executor/run_control.hpp"

namespace rtpar::detail {

// Runner owns everything one task needs at run time, all allocated when it is constructed.
class Runner {
 public:
  virtual ~Runner() = default;
  // start creates the task's threads' master; it waits for control.go before its first release.
  virtual void start() = 0;
  // join waits for the master to finish its last job (after control.end_ns or a stop).
  virtual void join() = 0;
  // result moves the records out into a TaskRun (call after join).
  virtual TaskRun result() = 0;
  // counters are the live statistics for progress output.
  [[nodiscard]] virtual const TaskCounters& counters() const noexcept = 0;
  // failure is the exception the task's code threw, if any (the task stopped releasing then).
  [[nodiscard]] virtual std::exception_ptr failure() const noexcept = 0;
};

// RunnerBase is what every runner keeps: the task, its plan, the run's control words, the task's
// channel endpoint, its release loop, its job log and the exception its code threw.
class RunnerBase : public Runner {
 public:
  [[nodiscard]] const TaskCounters& counters() const noexcept final { return log_.counters(); }
  [[nodiscard]] std::exception_ptr failure() const noexcept final { return failure_; }

 protected:
  // RunnerBase preallocates `record_capacity` job records.
  RunnerBase(const TaskSpec& task, const TaskPlan& placement, std::int64_t record_capacity,
             RunControl& control, Endpoint* channels)
      : task_(task),
        placement_(placement),
        control_(control),
        channels_(channels),
        releases_(task, control),
        log_(record_capacity, task.deadline.count(), channels) {}

  const TaskSpec& task_;
  const TaskPlan& placement_;
  RunControl& control_;
  Endpoint* channels_;
  ReleaseLoop releases_;  // next() by one thread at a time (the master, or a job's closer)
  JobLog log_;            // recorded by one thread at a time, read after join
  std::exception_ptr failure_;
};

// make_runner builds the runner the plan asks for: a StrandRunner when placement has segments,
// else a TaskRunner.
std::unique_ptr<Runner> make_runner(const TaskSpec& task, const TaskPlan& placement,
                                    bool best_effort, std::int64_t record_capacity,
                                    RunControl& control, Endpoint* channels);

}  // namespace rtpar::detail
