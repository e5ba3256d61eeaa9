// rtpar/member_job_hooks.hpp — what a fork/join team tells its owner about each worker's part of a
// job, on the worker's own thread (the per-member CPU-time budgets of partitioned teams,
// docs/reliability.md "Budgets").
#pragma once

namespace rtpar {

// MemberJobHooks is called by each worker (rank ≥ 1) of a team on its own thread: started once
// before its first job, job_begin when it takes its first region of a job, job_end once it knows
// that job is over (it saw the master's park(), or the next job's first region) or before it
// sleeps while demoted() says its job was demoted (so that it never waits for a fork below the
// real-time threads; a later region of that job begins a new one), and exiting once
// when the team shuts down (after the job_end of a job still open). The calls of one rank come
// from one thread, in that order; ranks call concurrently. Every member must be noexcept and,
// except started and exiting, must not block, lock or allocate (they run on the release fast path).
class MemberJobHooks {
 public:
  virtual ~MemberJobHooks() = default;
  // started runs on worker `rank` once, before its first job.
  virtual void started(int rank) noexcept = 0;
  // job_begin runs on worker `rank` before its first region of a job.
  virtual void job_begin(int rank) noexcept = 0;
  // job_end runs on worker `rank` once it knows the job it began is over.
  virtual void job_end(int rank) noexcept = 0;
  // demoted says, on worker `rank`, whether its open job was demoted (a budget overrun).
  [[nodiscard]] virtual bool demoted(int rank) const noexcept = 0;
  // exiting runs on worker `rank` once, when it leaves the team.
  virtual void exiting(int rank) noexcept = 0;
};

}  // namespace rtpar
