// job_log.cpp — see job_log.hpp.
#include "runtime/executor/job_log.hpp"

#include <utility>

namespace rtpar::detail {

JobLog::JobLog(std::int64_t capacity, std::int64_t deadline_ns, const Endpoint* channels)
    : deadline_ns_(deadline_ns), records_(static_cast<std::size_t>(capacity)), channels_(channels) {
  if (channels_ != nullptr) {
    for (const int in : channels_->traced_inputs()) {
      origins_.push_back({channels_->read_name(in), std::vector<std::int64_t>(records_.size())});
    }
  }
}

void JobLog::record(const JobRecord& r) noexcept {
  if (used_ < records_.size()) {
    for (std::size_t t = 0; t < origins_.size(); ++t) {
      origins_[t].origin_ns[used_] = channels_->input_origin(channels_->traced_inputs()[t]);
    }
    records_[used_++] = r;
  } else {
    truncated_ = true;
  }
  // relaxed: progress statistics only, read relaxed by the control thread (may lag by a job);
  // the records themselves are read after join() (RunControl (3)).
  counters_.jobs.fetch_add(1, std::memory_order_relaxed);
  const std::int64_t response = r.finish_ns - r.release_ns;
  // relaxed: as above; only this (one) recording thread stores it, so load-then-store is exact.
  if (response > counters_.max_response_ns.load(std::memory_order_relaxed)) {
    counters_.max_response_ns.store(response, std::memory_order_relaxed);
  }
  if (response > deadline_ns_) {
    // relaxed: as above.
    counters_.misses.fetch_add(1, std::memory_order_relaxed);
  }
}

TaskRun JobLog::take_run(const TaskSpec& task, const TaskPlan& placement, std::int64_t skipped) {
  TaskRun run;
  run.name = task.name;
  run.deadline_ns = task.deadline.count();
  run.period_ns = task.period.count();
  run.skipped = skipped;
  run.records_truncated = truncated_;
  run.cores = placement.cores;
  records_.resize(used_);
  run.records = std::move(records_);
  for (InputOrigins& o : origins_) o.origin_ns.resize(used_);
  run.input_origins = std::move(origins_);
  return run;
}

TaskRun JobLog::copy_run(const TaskSpec& task, const TaskPlan& placement,
                         std::int64_t skipped) const {
  TaskRun run;
  run.name = task.name;
  run.deadline_ns = task.deadline.count();
  run.period_ns = task.period.count();
  run.skipped = skipped;
  run.records_truncated = truncated_;
  run.cores = placement.cores;
  run.records.assign(records_.begin(), records_.begin() + static_cast<std::ptrdiff_t>(used_));
  return run;
}

}  // namespace rtpar::detail
