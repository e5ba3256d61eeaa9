// rtpar/executor.hpp — runs a Plan: pinned real-time threads, periodic releases, job records.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "rtpar/channel_set.hpp"
#include "rtpar/ext/kernel.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/topology.hpp"  // online_cpus (declared here before the header tiers)

namespace rtpar {

// RunConfig holds the knobs of one run; named fields instead of growing argument lists.
struct RunConfig {
  Duration duration{std::chrono::seconds(10)};          // releases stop after this much time
  Duration start_delay{std::chrono::milliseconds(50)};  // first release = setup end + this
  bool best_effort = false;  // SCHED_OTHER instead of SCHED_FIFO (no RT privilege needed)
  bool lock_memory = true;   // mlockall(MCL_CURRENT|MCL_FUTURE) before the first release
  // cpu_latency_us: for a real-time run, the CPU latency QoS cap held from before the first
  // release to the end (/dev/cpu_dma_latency: idle cores only enter states they leave within this
  // many µs; 0 keeps them polling, as cyclictest does), which takes the idle-state exit out of
  // every release; -1 requests nothing. A refused request is stated in the report, not fatal.
  std::int64_t cpu_latency_us = 0;
  // handle_signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM, SIGXCPU stop releases
  // (the first one; later ones are ignored, said once on stderr), SIGPIPE and SIGXFSZ are ignored,
  // for the run (docs/internals/executor.md "Signals"); real-time threads never see them.
  bool handle_signals = false;
  // contain_crashes: a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL) in a task's thread ends the run at
  // once with complete reports and a TaskFailure naming the task and job, instead of killing the
  // process (docs/reliability.md "Crashes"); the handlers are installed for the run only.
  bool contain_crashes = true;
  std::int64_t max_records_per_task = 10'000'000;  // cap on preallocated job records
  // progress, when set, is called about every `progress_interval` from the calling thread with
  // (elapsed ns, jobs finished so far, misses so far). Not called from real-time threads.
  std::function<void(std::int64_t, std::int64_t, std::int64_t)> progress;
  Duration progress_interval{std::chrono::milliseconds(250)};
  // channels, when set, are the run's channels (created by the caller so that non-real-time
  // threads can attach first, see System::open_channels); otherwise execute() creates them.
  ChannelSet* channels = nullptr;
  // control_cores, when not empty, are the CPUs the calling (control) thread moves to once every
  // task thread exists, e.g. system.nonrt_cores: progress, signals and report writing then stay
  // off the real-time cores. Moved after the checks, which need the caller's full affinity.
  std::vector<int> control_cores;
  // run_refused: also run a plan its planner did not admit, provided it places every task
  // (plan_places_every_task) — what RT-OpenMP's and OpenMP-RT's evaluations did with sets no test
  // had admitted (experiment series with `admission = false`). Misses are then the point.
  bool run_refused = false;
};

// plan_places_every_task says whether every task of the plan has somewhere to run: every strand
// of a strand-level plan on a core, or (no strands) at least one core. A refused plan may still be
// complete (its analysis failed, not its placement); only a complete one can be run.
bool plan_places_every_task(const Plan& plan);

// TaskFailure is a run in which task code threw (a steal::CapacityError when a job exceeds its
// work-stealing budget, a kernel's failed self-check, an exception from bound code). The failed
// task stopped releasing at that job; the other tasks ran to the end. It carries the complete
// report (TaskRun::failure names each failed task's exception) and the first exception itself.
class TaskFailure : public std::runtime_error {
 public:
  // TaskFailure describes the first failed task; what() is "task 'NAME' failed: MESSAGE".
  TaskFailure(const std::string& task, const std::string& message, RunReport report,
              std::exception_ptr cause);
  // report is the run's report, as execute would have returned it.
  [[nodiscard]] const RunReport& report() const noexcept { return *report_; }
  // cause is the exception the task's code threw (rethrow it to inspect its type).
  [[nodiscard]] std::exception_ptr cause() const noexcept { return cause_; }

 private:
  std::shared_ptr<const RunReport> report_;  // shared: exceptions must be cheap to copy
  std::exception_ptr cause_;
};

// execute runs the plan of a task set and returns the complete report. Throws InputError if the
// plan is not schedulable (unless config.run_refused and it places every task) or names cores that
// are not online, EnvironmentError if real-time scheduling is refused (and best_effort is false),
// TaskFailure if a task's code threw.
RunReport execute(const TaskSet& set, const Plan& plan, const RunConfig& config);

}  // namespace rtpar
