// thread_trace.cpp — see thread_trace.hpp.
#include "runtime/executor/thread_trace.hpp"

#include <algorithm>
#include <utility>

namespace rtpar::detail {

ThreadTrace::ThreadTrace(std::int64_t jobs, std::int64_t per_job)
    : slices_(static_cast<std::size_t>(
          std::clamp<std::int64_t>(jobs * per_job, 0, kMaxSlicesPerThread))) {}

ThreadTrack ThreadTrace::take(int tid, int cpu, std::string role) {
  ThreadTrack track;
  track.tid = tid;
  track.cpu = cpu;
  track.role = std::move(role);
  slices_.resize(used_);
  track.slices = std::move(slices_);
  track.dropped = dropped_;
  used_ = 0;
  return track;
}

}  // namespace rtpar::detail
