// stats.cpp — per-task statistics from job records: response times, misses, percentiles.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rtpar/report.hpp"

namespace rtpar {
namespace {

// is_miss is the one definition of a deadline miss: a response strictly greater than D. A job that
// finishes exactly at its deadline met it.
bool is_miss(const JobRecord& record, std::int64_t deadline_ns) {
  return record.finish_ns - record.release_ns > deadline_ns;
}

// nearest_rank returns ceil(q·n), treating q·n within rounding noise of an integer as that integer.
// Without the tolerance a decimal q such as 0.07 (stored as 0.07000000000000000666) times n = 100
// gives 7.000000000000001 and ceil would pick the 8th value instead of the 7th.
double nearest_rank(double q, std::size_t n) {
  const double x = q * static_cast<double>(n);
  const double nearest = std::round(x);
  if (std::abs(x - nearest) <= 1e-9 * std::max(1.0, nearest)) return nearest;
  return std::ceil(x);
}

// profile_stats summarises one measurement over the jobs that measured it (work_ns > 0: a measured
// work-stealing run always executes some code).
template <class Field>
ProfileStats profile_stats(const std::vector<JobRecord>& records, Field field) {
  std::vector<std::int64_t> values;
  for (const JobRecord& r : records) {
    if (r.work_ns > 0) values.push_back(field(r));
  }
  std::sort(values.begin(), values.end());
  ProfileStats p;
  if (values.empty()) return p;
  p.p50_ns = percentile(values, 0.50);
  p.p99_ns = percentile(values, 0.99);
  p.max_ns = values.back();
  return p;
}

}  // namespace

std::int64_t percentile(const std::vector<std::int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const std::size_t n = sorted.size();
  // Clamp in floating point before converting: q outside (0, 1] or NaN must not reach the cast.
  if (!(q > 0.0)) return sorted.front();
  if (q >= 1.0) return sorted.back();
  const double rank = nearest_rank(q, n);  // 1-based; q ∈ (0, 1) keeps it within [0, n]
  if (rank <= 1.0) return sorted.front();
  const auto index = std::min(static_cast<std::size_t>(rank) - 1, n - 1);
  return sorted[index];
}

TaskStats summarize(const TaskRun& run) {
  TaskStats stats;
  stats.name = run.name;
  stats.skipped = run.skipped;
  stats.jobs = static_cast<std::int64_t>(run.records.size());
  stats.overruns = run.overruns;
  stats.max_overrun_ns = run.max_overrun_ns;
  stats.demoted_ns = run.demoted_ns;
  if (run.records.empty()) return stats;

  // The only allocation: one vector of responses, sorted once for every percentile.
  std::vector<std::int64_t> responses;
  responses.reserve(run.records.size());
  for (const JobRecord& record : run.records) {
    responses.push_back(record.finish_ns - record.release_ns);
    if (is_miss(record, run.deadline_ns)) ++stats.misses;
  }
  std::sort(responses.begin(), responses.end());

  stats.miss_ratio = static_cast<double>(stats.misses) / static_cast<double>(stats.jobs);
  stats.response_min_ns = responses.front();
  stats.response_p50_ns = percentile(responses, 0.50);
  stats.response_p99_ns = percentile(responses, 0.99);
  stats.response_max_ns = responses.back();
  // A task without a positive deadline cannot be validated, but a report must still render.
  if (run.deadline_ns > 0) {
    stats.max_relative_response =
        static_cast<double>(stats.response_max_ns) / static_cast<double>(run.deadline_ns);
  }
  if (run.profiled) {
    stats.profiled_jobs = std::count_if(run.records.begin(), run.records.end(),
                                        [](const JobRecord& r) { return r.work_ns > 0; });
    stats.work = profile_stats(run.records, [](const JobRecord& r) { return r.work_ns; });
    stats.span = profile_stats(run.records, [](const JobRecord& r) { return r.span_ns; });
    stats.burdened_span =
        profile_stats(run.records, [](const JobRecord& r) { return r.burdened_span_ns; });
  }
  return stats;
}

std::vector<TaskStats> RunReport::stats() const {
  std::vector<TaskStats> out;
  out.reserve(tasks.size());
  for (const TaskRun& run : tasks) out.push_back(summarize(run));
  return out;
}

std::int64_t RunReport::total_misses() const {
  // Counted directly rather than through summarize: no sorting or allocation is needed for a sum.
  std::int64_t misses = 0;
  for (const TaskRun& run : tasks) {
    misses += std::count_if(run.records.begin(), run.records.end(),
                            [&](const JobRecord& r) { return is_miss(r, run.deadline_ns); });
  }
  return misses;
}

std::int64_t RunReport::total_hold_overruns() const {
  std::int64_t overruns = 0;
  for (const LockRun& lock : locks) {
    for (const LockUserRun& u : lock.users) overruns += u.hold_overruns;
  }
  return overruns;
}

}  // namespace rtpar
