// task_runner.hpp — one task at run time: its master thread, its team and its job records.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "platform/rt_thread.hpp"
#include "rtpar/ext/kernel.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/steal.hpp"
#include "rtpar/taskset.hpp"
#include "runtime/executor/member_budgets.hpp"
#include "runtime/executor/run_control.hpp"
#include "runtime/executor/runner.hpp"
#include "runtime/executor/steal_budgets.hpp"
#include "runtime/executor/steal_trace.hpp"
#include "runtime/executor/thread_trace.hpp"
#include "runtime/executor/tracing_team.hpp"

namespace rtpar::detail {

// TaskRunner owns everything one task needs at run time, all allocated in the constructor.
class TaskRunner final : public RunnerBase {
 public:
  // TaskRunner preallocates `record_capacity` job records, prepares the kernel and creates the team
  // workers or, for runtime = "steal", the work-stealing pool with its whole memory budget
  // (pinned, at the plan's priority, or SCHED_OTHER when best_effort).
  // With a budget, a one-thread task's master measures each job against the task's work, and each
  // member of a partitioned team its own part against what the plan charges on its core
  // (analysis::member_budgets; MemberBudgets for the workers). Federated teams, steal pools and a
  // kernel's own team run without one, said in BudgetTally::note.
  TaskRunner(const TaskSpec& task, const TaskPlan& placement, bool best_effort,
             std::int64_t record_capacity, RunControl& control, Endpoint* channels,
             BudgetRequest budget = {});
  ~TaskRunner() override;
  TaskRunner(const TaskRunner&) = delete;
  TaskRunner& operator=(const TaskRunner&) = delete;

  // start creates the master thread; it waits for control.go before its first release.
  void start() override;
  // join waits for the master to finish its last job (after control.end_ns or a stop).
  void join() override;
  bool join_until(std::int64_t deadline_ns) override;
  // result moves the records out into a TaskRun (call after join).
  TaskRun result() override;
  [[nodiscard]] std::vector<int> thread_ids() const override;

 private:
  void master_loop() noexcept;
  // worker_tids are the thread ids of the team's or the pool's workers.
  [[nodiscard]] std::vector<int> worker_tids() const;

  // ready_ values: start_master has not returned / returned / threw (failure_ holds why).
  static constexpr std::uint32_t kReadyPending = 0;
  static constexpr std::uint32_t kReadyOk = 1;
  static constexpr std::uint32_t kReadyFailed = 2;

  ThreadConfig master_config_;
  KernelSetup setup_;  // what the kernel was prepared with (and start_master receives)
  // ready_ is the futex word on which start() waits for a kernel that owns its threads to have
  // created them on the master (start_master); see start() and master_loop().
  alignas(64) std::atomic<std::uint32_t> ready_{kReadyPending};
  // member_budgets_ are a partitioned team's workers' budgets (null otherwise); declared before
  // team_, whose workers use it until they exit.
  std::unique_ptr<MemberBudgets> member_budgets_;
  std::int64_t master_charged_ns_ = 0;  // the master's budget per job (a team's rank 0)
  bool tallied_members_ = false;        // result() added the workers' tallies
  std::vector<int> team_tids_;          // the team's worker tids, kept when result() ends it
  std::unique_ptr<Team> team_;          // runtime = "team" (null for "steal")
  TracingTeam* tracing_ = nullptr;      // team_ when it has workers (it records their shares)
  // steal_trace_ records the pool's workers (runtime = "steal"); declared before pool_, whose
  // hooks write into it, so it outlives the pool.
  std::unique_ptr<StealTrace> steal_trace_;
  // steal_budgets_ monitors the pool's workers (runtime = "steal" with a budget); declared before
  // pool_ for the same reason.
  std::unique_ptr<StealBudgets> steal_budgets_;
  std::unique_ptr<steal::Pool> pool_;  // runtime = "steal" (null for "team")
  std::unique_ptr<RtThread> master_;
  int master_tid_ = 0;
  // trace_ is what the master executed (its jobs and overruns), added by the master only and read
  // after join.
  ThreadTrace trace_{0, 0};
  std::vector<int> edf_slots_;  // EdfBand slots of the master and each worker (EDF plans only)
};

}  // namespace rtpar::detail
