// job_log.hpp — one task's job records and live counters, shared by TaskRunner and StrandRunner.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "rtpar/channel_set.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"
#include "rtpar/taskset.hpp"

namespace rtpar::detail {

// TaskCounters are read by the progress display while the master updates them (relaxed: they are
// statistics, not synchronisation).
struct TaskCounters {
  alignas(64) std::atomic<std::int64_t> jobs{0};
  std::atomic<std::int64_t> misses{0};
  // max_response_ns is the largest response time recorded so far (the hang grace scales with it).
  std::atomic<std::int64_t> max_response_ns{0};
};

// JobLog is the preallocated JobRecord array of one task and its counters. All memory is taken in
// the constructor; record() allocates nothing and takes no lock. One thread at a time records
// (the master, or a strand job's closer, each one happening-after the previous), and the records
// are read after the runner's join().
class JobLog {
 public:
  // JobLog preallocates `capacity` records; a job whose response exceeds `deadline_ns` is a miss.
  // With an endpoint, it also preallocates one origin per record for each of its traced inputs
  // (the channels that end a cause-effect chain at this task).
  JobLog(std::int64_t capacity, std::int64_t deadline_ns, const Endpoint* channels = nullptr);

  // record stores r in the next free record (or marks the log truncated when none is left),
  // with the origins of the endpoint's traced inputs, and counts the job, and its miss when
  // finish − release exceeds the deadline.
  void record(const JobRecord& r) noexcept;
  // counters are the live statistics for progress output.
  [[nodiscard]] const TaskCounters& counters() const noexcept { return counters_; }
  // take_run moves the filled records out into a TaskRun of `task` placed by `placement`, with
  // `skipped` dropped releases; the caller adds the threads' ids and whatever else it knows.
  TaskRun take_run(const TaskSpec& task, const TaskPlan& placement, std::int64_t skipped);
  // copy_run is take_run without taking: the records stay (a hung job's thread still owns the
  // log), for a caller to which they were published (Runner::hung_result).
  [[nodiscard]] TaskRun copy_run(const TaskSpec& task, const TaskPlan& placement,
                                 std::int64_t skipped) const;

 private:
  std::int64_t deadline_ns_;
  std::vector<JobRecord> records_;  // sized once; used_ counts the filled prefix
  const Endpoint* channels_;
  std::vector<InputOrigins> origins_;  // per traced input, sized like records_
  std::size_t used_ = 0;
  bool truncated_ = false;
  TaskCounters counters_;
};

}  // namespace rtpar::detail
