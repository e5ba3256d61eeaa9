// steal_trace.cpp — see steal_trace.hpp.
#include "runtime/executor/steal_trace.hpp"

#include <string>

#include "rtpar/time.hpp"

namespace rtpar::detail {

StealTrace::StealTrace(int workers, std::int64_t jobs)
    : joined_(static_cast<std::size_t>(workers > 1 ? workers - 1 : 0), 0) {
  for (int r = 1; r < workers; ++r) traces_.emplace_back(jobs, 1);
}

void StealTrace::install(steal::PoolConfig& config) {
  config.before_run = [this](int rank) { begin(rank); };
  config.after_run = [this](int rank) { end(rank); };
}

void StealTrace::begin(int rank) noexcept {
  if (rank < 1 || job_ < 0) return;
  joined_[static_cast<std::size_t>(rank - 1)] = monotonic_now();
}

void StealTrace::end(int rank) noexcept {
  if (rank < 1 || job_ < 0) return;  // worker 0 is the master: its job slice covers it
  const auto i = static_cast<std::size_t>(rank - 1);
  const std::int64_t now = monotonic_now();
  if (!traces_[i].extend_to(ThreadSliceKind::steal, job_, now)) {
    traces_[i].add(ThreadSliceKind::steal, job_, -1, joined_[i], now);
  }
}

ThreadTrack StealTrace::take(int rank, int tid, int cpu) {
  return traces_[static_cast<std::size_t>(rank - 1)].take(tid, cpu,
                                                          "steal worker " + std::to_string(rank));
}

}  // namespace rtpar::detail
