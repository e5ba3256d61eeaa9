// rtpar/system.hpp — the library entry point: load or build a task set, bind code, plan, run.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "rtpar/channel_set.hpp"
#include "rtpar/executor.hpp"
#include "rtpar/ext/kernel.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar {

// System is a task set together with the code of its tasks.
//
//   auto sys = rtpar::System::load("tasks.toml");
//   sys.bind("camera", [](rtpar::JobContext& job) { ... });
//   rtpar::RunReport r = sys.run({.duration = std::chrono::seconds(5)});
class System {
 public:
  // load reads a task-set file (throws InputError on bad input).
  static System load(const std::string& path);
  // System wraps a task set built in code; tasks without code must be bound before run().
  explicit System(TaskSet set);

  // bind makes fn the job code of the named task, replacing its kernel. Throws InputError for an
  // unknown task name. fn runs on the task's master thread; use job.team (runtime = "team") or
  // job.run_parallel with rtpar::steal (runtime = "steal") for parallelism.
  System& bind(std::string_view task, std::function<void(JobContext&)> fn);

  // taskset is the task set as loaded or built.
  [[nodiscard]] const TaskSet& taskset() const noexcept { return set_; }
  // plan validates the task set and runs its planner.
  [[nodiscard]] Plan plan() const;
  // run plans and executes for config.duration and returns the report. Throws InputError if the
  // set is invalid or not schedulable, EnvironmentError if real-time scheduling is refused.
  RunReport run(const RunConfig& config = {});

  // open_channels creates the task set's channels for a run with config (once; later calls return
  // the same set, and run() uses it). Call it before run() when threads of the program that are
  // not real-time tasks must attach to channels declared with "nonrt".
  ChannelSet& open_channels(const RunConfig& config = {});
  // nonrt is the non-real-time program's endpoint: its writer and reader handles on the channels
  // that name "nonrt". Opens the channels with default RunConfig if not open yet. Use it from
  // one thread per handle (a channel has one writer; each reader handle serves one thread).
  Endpoint& nonrt();

 private:
  TaskSet set_;
  std::unique_ptr<ChannelSet> channels_;
};

}  // namespace rtpar
