// steal_budgets.hpp — the CPU-time monitor of a steal pool's workers, job by job
// (docs/reliability.md, "Budgets").
#pragma once

#include <cstdint>
#include <memory>

#include "rtpar/steal.hpp"
#include "runtime/executor/runner.hpp"

namespace rtpar::detail {

// StealBudgets measures, for each worker 1..P-1 of a steal::Pool, the CPU time it spends in each
// job's pool runs (a job may run the pool several times; their times add up) against the task's
// whole work C plus the margin, and counts a worker-job above it as an overrun. Monitor only: a
// steal pool's analysis (RTWS §V, federated-ws) bounds the job, not a worker's part of it, so no
// worker has a share to enforce, and its cores are the task's own. A worker's CPU time in a job
// is at most the job's response, which the bound keeps ≤ C, so a worker over C means the job ran
// longer than its analysis allows. It hooks the pool's before_run/after_run: one read of the
// thread's CPU clock at each (a vDSO-less system call, charged by the analysis as a monitor arm
// per run: overhead_charge.hpp, budget_charge), into per-worker cache lines — no allocation, lock
// or timer. The master (worker 0) is the TaskRunner's own CpuBudget.
class StealBudgets {
 public:
  // StealBudgets monitors `workers` − 1 workers against charged_ns + margin_ns per job.
  StealBudgets(int workers, std::int64_t charged_ns, std::int64_t margin_ns);

  // install chains this monitor into `config`'s before_run/after_run (kept: they run after ours
  // on entry and before ours on exit, so the trace's slice includes the clock reads). This object
  // must outlive the pool.
  void install(steal::PoolConfig& config);
  // set_job names the job whose runs follow (the master, before the job's first run). A plain
  // write: Pool::run publishes it to the workers (the run's epoch RMW, rtpar/steal.hpp). Runs
  // before the first set_job (the pool's calibration) are not measured.
  void set_job(std::int64_t index) noexcept { job_ = index; }
  // add_to closes each worker's last job and adds the overruns into `tally`. Call after the pool's
  // last run returned (each worker's after_run happened-before it: the run's busy count) and
  // before the pool runs again.
  void add_to(BudgetTally& tally);

 private:
  // Worker is one worker's tally, on a cache line of its own (written only by that worker).
  struct alignas(64) Worker {
    std::int64_t job = -1;      // the job its open measurement belongs to (-1: none)
    std::int64_t used_ns = 0;   // CPU time in that job's runs so far
    std::int64_t run_cpu = 0;   // its CPU clock when it joined the current run
    std::int64_t overruns = 0;  // worker-jobs over charged + margin
    std::int64_t max_excess_ns = 0;
  };

  // begin and end are the hooks: worker `rank` joins / leaves a run.
  void begin(int rank) noexcept;
  void end(int rank) noexcept;
  // close checks the job `w` measured against the budget and forgets it.
  void close(Worker& w) const noexcept;

  const std::int64_t charged_ns_;
  const std::int64_t limit_ns_;  // charged + margin (saturated)
  const int workers_;
  std::unique_ptr<Worker[]> tally_;  // per worker rank − 1
  std::int64_t job_ = -1;            // written by the master before a run (see set_job)
};

}  // namespace rtpar::detail
