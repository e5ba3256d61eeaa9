// bound_trace.hpp — what each worker of a bound master's top-level team did job by job, for the
// executor's trace.json tracks (rtpar_omp_trace in binding.cpp; docs/cli.md, "trace.json").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rtpar::omp {

// BoundSlice is one region share of a worker (rtpar_omp_slice's fields; binding.cpp copies it).
struct BoundSlice {
  std::int64_t job = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

// BoundTrace is the slice storage rtpar_omp_trace preallocates: per worker (rank − 1) an array
// that only that worker fills (WorkerBody, parallel.cpp), without allocation, lock or system
// call, and that rtpar_omp_trace_take reads after the master's last job (every slice was written
// before a region end the master waited for).
struct BoundTrace {
  // Worker is one worker's slices and the count of its current job's.
  struct Worker {
    std::vector<BoundSlice> slices;  // sized once; `used` counts the filled prefix
    std::size_t used = 0;
    std::int64_t dropped = 0;  // slices that did not fit
    std::int64_t job = -1;     // the job of the last slice
    std::int64_t in_job = 0;   // slices of that job so far
  };

  // kSlicesPerJob is how many slices per job a worker keeps (RTPAR_OMP_TRACE_SLICES_PER_JOB).
  static constexpr std::int64_t kSlicesPerJob = 4;

  std::vector<Worker> workers;
  // job is the job whose regions run now: written by the master (rtpar_omp_trace_job) before the
  // job's first region, whose fork publishes it (the team's invariant 1); -1 before the first.
  std::int64_t job = -1;

  // add records worker `rank`'s share of a region of the current job: at most
  // kSlicesPerJob per job, a later region extending the job's last slice to its
  // end (gaps between the regions included).
  void add(int rank, std::int64_t start_ns, std::int64_t end_ns) noexcept {
    if (job < 0 || rank < 1 || static_cast<std::size_t>(rank) > workers.size()) return;
    Worker& w = workers[static_cast<std::size_t>(rank - 1)];
    if (w.job != job) {
      w.job = job;
      w.in_job = 0;
    }
    if (w.in_job >= kSlicesPerJob && w.used > 0 && w.slices[w.used - 1].job == job) {
      w.slices[w.used - 1].end_ns = end_ns;
      return;
    }
    ++w.in_job;
    if (w.used < w.slices.size()) {
      w.slices[w.used++] = BoundSlice{job, start_ns, end_ns};
    } else {
      ++w.dropped;
    }
  }
};

}  // namespace rtpar::omp
