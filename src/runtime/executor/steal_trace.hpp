// steal_trace.hpp — what each worker of a task's steal pool did job by job, for trace.json's
// per-thread and per-CPU tracks (docs/cli.md, "trace.json").
#pragma once

#include <cstdint>
#include <vector>

#include "rtpar/report.hpp"
#include "rtpar/steal.hpp"
#include "runtime/executor/thread_trace.hpp"

namespace rtpar::detail {

// StealTrace records, for each worker 1..P-1 of a steal::Pool, one `steal` slice per job: from
// the worker joining the job's first run to it leaving the job's last one (a job may run the pool
// several times; the slice then spans them). It hooks the pool's before_run/after_run: two clock
// reads per worker and run, into preallocated storage — no allocation, lock or system call.
// Per-frame slices would cost a clock read per steal and thousands of slices per job; the job's
// work/span profile (jobs.csv) already measures what ran.
class StealTrace {
 public:
  // StealTrace preallocates one slice per job, for each of `workers` − 1 workers and `jobs` jobs.
  StealTrace(int workers, std::int64_t jobs);

  // install sets `config`'s before_run/after_run to record into this trace (which must outlive
  // the pool).
  void install(steal::PoolConfig& config);
  // set_job names the job whose runs follow (the master, before the job's first run). A plain
  // write: Pool::run publishes it to the workers (the run's epoch RMW, rtpar/steal.hpp). Runs
  // before the first set_job (the pool's calibration) are not recorded.
  void set_job(std::int64_t index) noexcept { job_ = index; }
  // take moves worker `rank`'s slices out (after the pool's last run: every slice it recorded
  // happened-before that run's end, which the master waited for).
  ThreadTrack take(int rank, int tid, int cpu);

 private:
  // begin and end are the hooks: worker `rank` joins / leaves a run.
  void begin(int rank) noexcept;
  void end(int rank) noexcept;

  std::vector<ThreadTrace> traces_;   // per worker (rank − 1), added by that worker only
  std::vector<std::int64_t> joined_;  // per worker: when it joined the current run (its own)
  std::int64_t job_ = -1;             // written by the master before a run (see set_job)
};

}  // namespace rtpar::detail
