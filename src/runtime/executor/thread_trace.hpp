// thread_trace.hpp — one thread's preallocated slice records (what it executed, job by job), for
// trace.json's per-thread and per-CPU tracks (docs/cli.md, "trace.json").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rtpar/report.hpp"

namespace rtpar::detail {

// kMaxSlicesPerThread bounds one thread's slice storage (32 bytes each: 2 MiB); a longer run
// counts the slices it could not keep as dropped.
inline constexpr std::int64_t kMaxSlicesPerThread = std::int64_t{1} << 16;

// ThreadTrace is one thread's ThreadSlice array, all memory taken in the constructor; add()
// allocates nothing, takes no lock and makes no system call. Only its own thread adds, and the
// slices are read after the runner's join().
class ThreadTrace {
 public:
  // ThreadTrace preallocates room for `jobs` jobs of `per_job` slices each, at most
  // kMaxSlicesPerThread.
  ThreadTrace(std::int64_t jobs, std::int64_t per_job);

  // add stores one slice, or counts it as dropped when the storage is full.
  void add(ThreadSliceKind kind, std::int64_t job, std::int32_t segment, std::int64_t start_ns,
           std::int64_t end_ns) noexcept {
    if (used_ < slices_.size()) {
      slices_[used_++] = ThreadSlice{job, start_ns, end_ns, segment, kind};
    } else {
      ++dropped_;
    }
  }
  // add_capped stores a slice like add, but at most `cap` per job: a later slice of the same job
  // extends the job's last one to its end (a team worker that ran many regions of one job keeps
  // its first cap − 1 regions and one slice from the cap-th to the last, gaps included).
  void add_capped(ThreadSliceKind kind, std::int64_t job, std::int32_t segment,
                  std::int64_t start_ns, std::int64_t end_ns, std::int64_t cap) noexcept {
    if (job != capped_job_) {
      capped_job_ = job;
      in_job_ = 0;
    }
    if (in_job_ >= cap && extend_to(kind, job, end_ns)) return;
    ++in_job_;
    add(kind, job, segment, start_ns, end_ns);
  }
  // extend_to lengthens the last slice to end at `end_ns` when it is a `kind` slice of `job`, and
  // says whether it did (a thread whose part of one job came in several pieces keeps one slice).
  bool extend_to(ThreadSliceKind kind, std::int64_t job, std::int64_t end_ns) noexcept {
    if (used_ == 0) return false;
    ThreadSlice& last = slices_[used_ - 1];
    if (last.kind != kind || last.job != job) return false;
    last.end_ns = end_ns;
    return true;
  }
  // take moves the filled slices out into the ThreadTrack of thread `tid` on `cpu`.
  ThreadTrack take(int tid, int cpu, std::string role);

 private:
  std::vector<ThreadSlice> slices_;  // sized once; used_ counts the filled prefix
  std::size_t used_ = 0;
  std::int64_t dropped_ = 0;
  std::int64_t capped_job_ = -1;  // add_capped: the job of the last slice and its slice count
  std::int64_t in_job_ = 0;
};

}  // namespace rtpar::detail
