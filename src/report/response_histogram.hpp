// response_histogram.hpp — each task's response times counted in log-spaced buckets (the 1-2-5
// series: 1 µs, 2 µs, 5 µs, 10 µs, ...), as cyclictest's histogram is read: for the run summary
// (one compact row per task) and for `run --json` / report.json.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rtpar/report.hpp"

namespace rtpar::report {

// HistogramBucket counts the jobs whose response R satisfies lo_ns <= R < hi_ns.
struct HistogramBucket {
  std::int64_t lo_ns = 0;
  std::int64_t hi_ns = 0;
  std::int64_t jobs = 0;
};

// bucket_edges are the upper edges of the buckets: 1 µs, 2 µs, 5 µs, 10 µs, ... up to the first
// edge above max_ns (the first bucket starts at 0). per_decade 3 gives the 1-2-5 series, 1 the
// powers of ten.
std::vector<std::int64_t> bucket_edges(std::int64_t max_ns, int per_decade = 3);

// response_histogram counts run's recorded jobs (response = finish - release) in the buckets of
// bucket_edges, from the first bucket holding a job to the last (empty buckets between them
// kept, so the shape reads without gaps); empty without jobs.
std::vector<HistogramBucket> response_histogram(const TaskRun& run, int per_decade = 3);

// histogram_json is {"buckets": [{"lo_ns", "hi_ns", "jobs"}, ...]} for run (docs/cli.md).
nlohmann::ordered_json histogram_json(const TaskRun& run);

// histogram_table is the summary's compact histogram: one row per task with jobs, one column
// per bucket from the fastest task's first to the slowest task's last (decades instead of the
// 1-2-5 series when that would make more than 12 columns); empty when no task has a job.
std::string histogram_table(const RunReport& report);

}  // namespace rtpar::report
