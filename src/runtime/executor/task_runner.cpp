// task_runner.cpp — see task_runner.hpp. The master loop is the release fast path: it sleeps until
// an absolute release time, runs the job, writes one preallocated record, and allocates nothing.
#include "runtime/executor/task_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string>

#include "platform/cpu_budget.hpp"
#include "platform/futex.hpp"
#include "rtpar/channel_set.hpp"
#include "runtime/executor/edf_band.hpp"

namespace rtpar::detail {

namespace {

ThreadConfig member_config(const TaskSpec& task, const TaskPlan& placement, bool best_effort,
                           std::size_t rank) {
  ThreadConfig c;
  // thread_cores (partitioned plans) lists each team thread's CPU; otherwise one per core.
  const std::vector<int>& cpus =
      placement.thread_cores.empty() ? placement.cores : placement.thread_cores;
  c.cpu = cpus.empty() ? -1 : cpus[rank];
  c.sched = best_effort ? SchedClass::other : SchedClass::fifo;
  // EDF threads start at the bottom of the EDF band; EdfBand ranks them at every release.
  c.priority = placement.scheduling == CoreScheduling::edf
                   ? EdfBand::kEdfTop - EdfBand::kMaxSlotsPerCore + 1
                   : placement.priority;
  c.name = (rank == 0 ? "rt:" : "rt" + std::to_string(rank) + ":") + task.name;
  return c;
}

}  // namespace

TaskRunner::TaskRunner(const TaskSpec& task, const TaskPlan& placement, bool best_effort,
                       std::int64_t record_capacity, RunControl& control, Endpoint* channels,
                       BudgetRequest budget)
    : RunnerBase(task, placement, record_capacity, control, channels, budget) {
  master_config_ = member_config(task, placement, best_effort, 0);
  trace_ = ThreadTrace(record_capacity, 2);  // per job: the job and an overrun
  TeamConfig team;
  team.wait = task.wait;
  const std::size_t members = !placement.thread_cores.empty() ? placement.thread_cores.size()
                              : placement.cores.empty()       ? 1
                                                              : placement.cores.size();
  for (std::size_t r = 0; r < members; ++r) {
    team.members.push_back(member_config(task, placement, best_effort, r));
  }
  const bool steal = task.runtime == RuntimeKind::steal;
  std::vector<std::int64_t> member_charged;  // per rank, a team's (empty: one thread)
  if (budget_.mode != BudgetMode::none) {
    if (members == 1) {
      // One thread on one core: the planners charge the task's whole work there.
      tally_.charged_ns = task.work.count();
      master_charged_ns_ = tally_.charged_ns;
    } else if (steal) {
      // A steal pool: its analysis (RTWS §V, federated-ws) bounds the job, not a worker's part of
      // it, so no worker has a share to enforce. The master and each worker are measured against
      // the whole work C (StealBudgets): one over it means the job overran C.
      tally_.charged_ns = task.work.count();
      master_charged_ns_ = tally_.charged_ns;
      budget_.mode = BudgetMode::monitor;
      tally_.note =
          "monitor only: a steal pool's workers have no planned share (the analysis "
          "bounds the job); each is measured against the whole work C";
      steal_budgets_ = std::make_unique<StealBudgets>(static_cast<int>(members), task.work.count(),
                                                      budget_.margin_ns);
    } else if (task.code->owns_threads()) {
      // A kernel's own (OpenMP) team: its runtime installs the member hooks on the workers of
      // the task's team (KernelSetup::member_hooks; rtpar_omp_bind), whose jobs end where the
      // executor parks them (rtpar_omp_job_end). No plan gives a member of it a share — the
      // OpenMP code decides who runs what — so, as a federated team's, each member is measured
      // against the whole work C and none is demoted.
      member_charged.assign(members, task.work.count());
      budget_.mode = BudgetMode::monitor;
      tally_.note =
          "monitor only: an OpenMP kernel's members have no planned share (its code "
          "divides the work); each is measured against the whole work C";
    } else if (placement.thread_cores.empty()) {
      // A federated heavy team on its dedicated cores: the analysis (Li et al. 2014, §IV)
      // bounds the job, not a member's part of it, so no member has a share to enforce, and
      // nobody else runs on those cores to protect. Each member is measured against the whole
      // work C: a member over it means the job overran C.
      member_charged.assign(members, task.work.count());
      budget_.mode = BudgetMode::monitor;
      tally_.note =
          "monitor only: a federated team's members have no planned share (the analysis "
          "bounds the job on its dedicated cores); each is measured against the whole "
          "work C";
    } else if (placement.member_budget_ns.size() == members) {
      // A partitioned team: each member against what the plan charges on its core per job.
      member_charged = placement.member_budget_ns;
    } else {
      // Threads sharing a core: the plan charges the core, not each thread. Measure each against
      // the whole work C, demote none.
      member_charged.assign(members, task.work.count());
      budget_.mode = BudgetMode::monitor;
      tally_.note = "monitor only: " + std::to_string(members) +
                    " threads share cores, where the plan charges a core and not a thread; each "
                    "thread is measured against the whole work C";
    }
  }
  if (!member_charged.empty()) {
    tally_.charged_ns = *std::max_element(member_charged.begin(), member_charged.end());
    master_charged_ns_ = member_charged[0];
    member_budgets_ = std::make_unique<MemberBudgets>(budget_.mode == BudgetMode::enforce,
                                                      std::move(member_charged), budget_.margin_ns);
    team.member_hooks = member_budgets_.get();
  }
  KernelSetup& setup = setup_;
  setup.work = task.work;
  setup.span = task.span;
  setup.threads = static_cast<int>(members);
  setup.steal = steal;
  for (const ThreadConfig& m : team.members) setup.cpus.push_back(m.cpu);
  setup.wait = task.wait;
  setup.trace_jobs = record_capacity;
  if (task.code->owns_threads()) setup.member_hooks = member_budgets_.get();
  task.code->prepare(setup);
  if (task.code->owns_threads()) {
    // The kernel's own runtime (an OpenMP team) creates the workers on the master thread
    // (start_master), with the CPUs and wait policy of `setup`: no team here.
  } else if (steal) {
    // The master thread is worker 0 of the pool: its stack is part of the budget too.
    master_config_.stack_bytes = task.steal.stack_bytes;
    steal::PoolConfig pool;
    pool.workers = team.members;
    pool.budget = task.steal;
    // The plan decides whether the workers may spin between runs (TaskPlan::dedicated_cores).
    if (!placement.dedicated_cores) pool.budget.idle_spin_ns = 0;
    steal_trace_ = std::make_unique<StealTrace>(static_cast<int>(members), record_capacity);
    steal_trace_->install(pool);
    if (steal_budgets_) steal_budgets_->install(pool);
    pool_ = std::make_unique<steal::Pool>(std::move(pool));
  } else {
    if (members > 1) {
      auto tracing = std::make_unique<TracingTeam>(make_team(team), record_capacity);
      tracing_ = tracing.get();
      team_ = std::move(tracing);
    } else {
      team_ = make_team(team);
    }
  }
  if (control.edf != nullptr && placement.scheduling == CoreScheduling::edf) {
    for (std::size_t r = 0; r < members; ++r) {
      edf_slots_.push_back(control.edf->add_slot(team.members[r].cpu));
      // Published to worker r by the first fork (MemberBudgets::share_demotion).
      if (member_budgets_ && r > 0 && budget_.mode == BudgetMode::enforce) {
        member_budgets_->share_demotion(static_cast<int>(r),
                                        control.edf->demotion_word(edf_slots_.back()));
      }
    }
  }
}

TaskRunner::~TaskRunner() { join(); }

void TaskRunner::start() {
  master_ = std::make_unique<RtThread>(master_config_, [this] { master_loop(); });
  if (!task_.code->owns_threads()) return;
  // Wait until the master created the kernel's workers, so that every thread of the run exists
  // (and is locked in memory) before t0. acquire: pairs with the master's release store of
  // ready_, making failure_ visible when it reports kReadyFailed.
  std::uint32_t r = kReadyPending;
  while ((r = ready_.load(std::memory_order_acquire)) == kReadyPending) {
    futex_wait(ready_, kReadyPending);
  }
  if (r == kReadyFailed) std::rethrow_exception(failure_);
}

void TaskRunner::join() {
  if (master_) {
    master_->join();
    master_tid_ = master_->tid();
    master_.reset();
  }
}

bool TaskRunner::join_until(std::int64_t deadline_ns) {
  if (!master_) return true;
  if (!master_->join_until(deadline_ns)) return false;
  join();
  return true;
}

std::vector<int> TaskRunner::thread_ids() const {
  std::vector<int> ids = {master_ ? master_->tid() : master_tid_};
  for (const int tid : worker_tids()) ids.push_back(tid);
  return ids;
}

std::vector<int> TaskRunner::worker_tids() const {
  if (pool_) return pool_->worker_tids();
  if (team_) return team_->worker_tids();
  if (!team_tids_.empty()) return team_tids_;  // result() ended the team
  return task_.code->worker_tids();
}

void TaskRunner::master_loop() noexcept {
  if (task_.code->owns_threads()) {
    std::uint32_t r = kReadyOk;
    try {
      task_.code->start_master(setup_);
    } catch (...) {
      failure_ = std::current_exception();
      r = kReadyFailed;
    }
    // release: publishes failure_ (and the kernel's workers) to start()'s acquire load.
    ready_.store(r, std::memory_order_release);
    futex_wake(ready_, 1);
    if (r == kReadyFailed) return;
  }
  // The budget's timer targets this thread, so it is made here, before the first release.
  std::optional<CpuBudget> budget;
  if (budget_.mode != BudgetMode::none) {
    try {
      budget.emplace(budget_.mode == BudgetMode::enforce, master_charged_ns_, budget_.margin_ns);
    } catch (const std::exception& e) {
      tally_.note = std::string("not applied: ") + e.what();
    }
  }
  // acquire: pairs with the control thread's release store of go; we must see the start_ns/end_ns
  // it published before releases_ reads them (RunControl (1)).
  while (control_.go.load(std::memory_order_acquire) == kGoWaiting) {
    futex_wait(control_.go, kGoWaiting);
  }

  JobContext job;
  job.team = team_.get();
  job.steal = pool_.get();
  job.channels = channels_;
  // This thread's explicit lock holds are the task's (lock channel records).
  if (channels_ != nullptr) set_channel_user(channels_->task_index());
  EdfBand* const edf = edf_slots_.empty() ? nullptr : control_.edf;
  // An enforced budget on an EDF core: re-ranking must leave the demoted thread below the band.
  if (budget && edf != nullptr) budget->share_demotion(edf->demotion_word(edf_slots_[0]));
  if (edf != nullptr) {
    // The workers published their tids when they started, before the team was handed over.
    const std::vector<int> tids = worker_tids();
    edf->set_tid(edf_slots_[0], static_cast<int>(::gettid()));
    for (std::size_t r = 1; r < edf_slots_.size() && r - 1 < tids.size(); ++r) {
      edf->set_tid(edf_slots_[r], tids[r - 1]);
    }
    edf->prepare_dispatch(edf_slots_[0]);
    // The job's lock accesses run on this thread: its MSRP sections survive re-ranking.
    set_nonpreemptive_hook(edf->nonpreemptive_hook(edf_slots_[0]));
  }

  const bool owns_threads = task_.code->owns_threads();
  for (std::int64_t k = 0, finish = 0; releases_.due(k); k = releases_.next(k, finish)) {
    const std::int64_t release = releases_.release(k);
    if (!releases_.sleep_until_release(release)) break;  // stopped

    if (edf != nullptr) {
      // EDF: rank this job's threads by its absolute deadline on each of their cores.
      for (const int slot : edf_slots_) edf->activate(slot, release + task_.deadline.count());
    }
    // The workers time their own next release (Team::expect_release): set at the start of the
    // job, so a worker that sleeps inside it (block policy) already sleeps on that timer. Under
    // `skip` an overrun moves the next release later; the workers then wake at release(k + 1),
    // spin their window and sleep until the fork — slower, never wrong.
    if (team_) team_->expect_release(releases_.release(k + 1));
    if (pool_) pool_->expect_release(releases_.release(k + 1));
    if (owns_threads) task_.code->job_started(releases_.release(k + 1));
    if (channels_ != nullptr) channels_->begin_job(release);  // origin of this job's writes
    // release: publishes the previous jobs' records and the skip count to hung_result.
    running_.store(k, std::memory_order_release);
    const std::int64_t start = monotonic_now();
    job.index = k;
    if (tracing_ != nullptr) tracing_->set_job(k);
    if (steal_trace_) steal_trace_->set_job(k);
    if (steal_budgets_) steal_budgets_->set_job(k);
    job.release_ns = release;
    job.work_ns = job.span_ns = job.burdened_span_ns = 0;
    job.steal_runs = 0;
    if (budget) budget->begin();
    try {
      task_.code->run(job);
    } catch (...) {
      failure_ = std::current_exception();
      if (budget) budget->end();  // restores a demoted thread
      break;
    }
    finish = monotonic_now();
    const std::int64_t overrun = budget ? budget->end() : 0;
    // Between jobs the workers sleep whatever the policy: spinning at SCHED_FIFO while no job
    // runs would hit RT throttling and steal the cores from everything else.
    if (team_) team_->park();
    if (owns_threads) task_.code->job_finished();
    if (edf != nullptr) {
      for (const int slot : edf_slots_) edf->deactivate(slot);
      edf->prepare_dispatch(edf_slots_[0]);
    }
    JobRecord r{k, release, start, finish};
    r.overrun_ns = overrun;
    if (job.steal_runs > 0) {
      r.work_ns = job.work_ns;
      r.span_ns = job.span_ns;
      r.burdened_span_ns = job.burdened_span_ns;
    }
    log_.record(r);
    // The job's own clock reads: no further system call or clock read on the job path.
    trace_.add(ThreadSliceKind::job, k, -1, start, finish);
    if (overrun > 0) {
      trace_.add(ThreadSliceKind::overrun, k, -1, std::max(start, finish - overrun), finish);
    }
  }
  if (budget) {
    // Read after join (RunControl (3)); a team's workers add theirs in result().
    tally_.overruns = budget->overruns();
    tally_.max_overrun_ns = budget->max_excess_ns();
    tally_.demoted_ns = budget->demoted_ns();
  }
}

TaskRun TaskRunner::result() {
  join();
  TaskRun run = log_.take_run(task_, placement_, releases_.skipped());
  run.master_tid = master_tid_;
  run.worker_tids = worker_tids();
  run.profiled = pool_ != nullptr;
  run.threads.push_back(trace_.take(master_tid_, master_config_.cpu, "master"));
  if (tracing_ != nullptr) {
    const std::vector<int> tids = tracing_->worker_tids();
    for (int r = 1; r < tracing_->size(); ++r) {
      const auto i = static_cast<std::size_t>(r);
      run.threads.push_back(tracing_->take(r, i - 1 < tids.size() ? tids[i - 1] : 0,
                                           i < setup_.cpus.size() ? setup_.cpus[i] : -1));
    }
  }
  if (task_.code->owns_threads()) {
    for (ThreadTrack& t : task_.code->worker_tracks()) run.threads.push_back(std::move(t));
  }
  if (steal_trace_) {
    const std::vector<int> tids = pool_->worker_tids();
    for (int r = 1; r < pool_->size(); ++r) {
      const auto i = static_cast<std::size_t>(r);
      run.threads.push_back(steal_trace_->take(r, i - 1 < tids.size() ? tids[i - 1] : 0,
                                               i < setup_.cpus.size() ? setup_.cpus[i] : -1));
    }
  }
  if (steal_budgets_ && !tallied_members_) {
    // The pool's last run returned before the master's loop ended (join() above), and no run
    // follows: the workers' tallies are complete.
    steal_budgets_->add_to(tally_);
    tallied_members_ = true;
  }
  if (member_budgets_ && !tallied_members_) {
    // The workers copy their tallies out when they exit: shut the team down first (joining its
    // threads orders their exiting() before this read). Nothing runs on it after the master's
    // last job. A kernel's own team (omp:) is shut down by the kernel, after its tids and
    // tracks were taken above.
    if (team_) {
      team_tids_ = team_->worker_tids();
      tracing_ = nullptr;
      team_.reset();
    } else {
      team_tids_ = task_.code->worker_tids();
      task_.code->stop_workers();
    }
    member_budgets_->add_to(tally_);
    tallied_members_ = true;
  }
  take_budget(run);
  return run;
}

}  // namespace rtpar::detail
