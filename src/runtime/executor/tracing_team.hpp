// tracing_team.hpp — a Team that records each worker's share of every fork/join region into the
// worker's ThreadTrace (trace.json's per-thread tracks; docs/cli.md, "trace.json").
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rtpar/report.hpp"
#include "rtpar/team.hpp"
#include "runtime/executor/thread_trace.hpp"

namespace rtpar::detail {

// TracingTeam wraps the team a TaskRunner made: every call goes to it, and a worker (rank ≥ 1)
// reads the clock before and after its share of a region and adds the slice to its own
// preallocated ThreadTrace (no allocation, lock or system call). The master sets the job index
// (set_job) before the job's first region; the fork publishes it to the workers with the region.
class TracingTeam final : public Team {
 public:
  // TracingTeam takes `inner` and preallocates, per worker, kSharesPerJob slices for each of
  // `jobs` jobs.
  TracingTeam(std::unique_ptr<Team> inner, std::int64_t jobs);

  [[nodiscard]] int size() const noexcept override { return inner_->size(); }
  void run(FunctionRef<void(int rank)> fn) override;
  void start(const FunctionRef<void(int rank)>& fn) override;
  void finish() override { inner_->finish(); }
  void barrier() override { inner_->barrier(); }
  void park() noexcept override { inner_->park(); }
  void expect_release(std::int64_t release_ns) noexcept override {
    inner_->expect_release(release_ns);
  }
  [[nodiscard]] std::vector<int> worker_tids() const override { return inner_->worker_tids(); }

  // set_job names the job whose regions follow (the master, before the job's first region).
  void set_job(std::int64_t index) noexcept { job_ = index; }
  // take moves worker `rank`'s slices out (after the master's join: every share it recorded
  // happened-before a finish() the master returned from).
  ThreadTrack take(int rank, int tid, int cpu);

  // kSharesPerJob is how many slices per job each worker's storage is sized for: the regions
  // after the first kSharesPerJob − 1 of a job share its last slice (ThreadTrace::add_capped).
  static constexpr std::int64_t kSharesPerJob = 4;

 private:
  // Share is the callable the inner team runs: the region's share of `rank`, timed for workers.
  struct Share {
    TracingTeam* team;
    void operator()(int rank) const;
  };

  std::unique_ptr<Team> inner_;
  std::vector<ThreadTrace> traces_;  // per worker (rank − 1), added by that worker only
  // region_ and job_ are written by the master (plain) before a fork, whose release publishes
  // them to the workers (the inner team's invariant 1).
  FunctionRef<void(int)> region_;  // set in the constructor (a no-op) and by every fork
  std::int64_t job_ = 0;
  Share share_{this};
};

}  // namespace rtpar::detail
