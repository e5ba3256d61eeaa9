// tracing_team.cpp — see tracing_team.hpp.
#include "runtime/executor/tracing_team.hpp"

#include <string>
#include <utility>

#include "rtpar/time.hpp"

namespace rtpar::detail {

namespace {

// kNoRegion is what region_ refers to before the first region (never called).
inline constexpr auto kNoRegion = [](int) {};

}  // namespace

TracingTeam::TracingTeam(std::unique_ptr<Team> inner, std::int64_t jobs)
    : inner_(std::move(inner)), region_(kNoRegion) {
  for (int r = 1; r < inner_->size(); ++r) traces_.emplace_back(jobs, kSharesPerJob);
}

void TracingTeam::Share::operator()(int rank) const {
  if (rank == 0) {  // the master: its job slice covers its share
    team->region_(0);
    return;
  }
  const std::int64_t start = monotonic_now();
  team->region_(rank);
  team->traces_[static_cast<std::size_t>(rank - 1)].add_capped(
      ThreadSliceKind::share, team->job_, -1, start, monotonic_now(), kSharesPerJob);
}

void TracingTeam::run(FunctionRef<void(int rank)> fn) {
  region_ = fn;
  inner_->run(FunctionRef<void(int)>(share_));
}

void TracingTeam::start(const FunctionRef<void(int rank)>& fn) {
  region_ = fn;
  inner_->start(FunctionRef<void(int)>(share_));
}

ThreadTrack TracingTeam::take(int rank, int tid, int cpu) {
  return traces_[static_cast<std::size_t>(rank - 1)].take(tid, cpu,
                                                          "team member " + std::to_string(rank));
}

}  // namespace rtpar::detail
