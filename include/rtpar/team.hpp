// rtpar/team.hpp — the fork/join team that runs one parallel job on a task's cores.
//
// Extension point: Team is an interface. The executor builds teams through make_team(); a faster
// implementation (spin / hybrid waiting, tree wake-up) replaces the default behind this interface.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "rtpar/function_ref.hpp"
#include "rtpar/thread_config.hpp"

namespace rtpar {

// Team is a fixed set of threads that execute fork/join regions. The thread that calls run() is
// the master and participates as rank 0; size()-1 workers were created up front.
class Team {
 public:
  virtual ~Team() = default;
  Team() = default;
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  // size is the number of members including the master.
  [[nodiscard]] virtual int size() const noexcept = 0;

  // run executes fn(rank) once on every member, rank in [0, size()), and returns when all have
  // finished. Must be called by the master thread only; regions do not nest. Does not allocate.
  virtual void run(FunctionRef<void(int rank)> fn) = 0;

  // worker_tids lists the Linux thread ids of the workers (for reports and traces).
  [[nodiscard]] virtual std::vector<int> worker_tids() const = 0;
};

// TeamConfig describes the members of a team: one ThreadConfig per member; members[0] describes
// the master (the caller of run(), which the team does not create).
struct TeamConfig {
  std::vector<ThreadConfig> members;
};

// make_team creates a blocking fork/join team: workers are created pinned at their configured
// scheduling class before this returns and sleep on a futex between regions, so they never spin at
// SCHED_FIFO while no job runs. Throws EnvironmentError if the kernel refuses the scheduling class.
std::unique_ptr<Team> make_team(const TeamConfig& config);

// parallel_for_static splits [begin, end) into size() contiguous blocks (the real-time default:
// each member's share is known in advance) and calls body(i) for every i on the owning member.
template <class Body>
void parallel_for_static(Team& team, std::int64_t begin, std::int64_t end, Body&& body) {
  const std::int64_t n = end > begin ? end - begin : 0;
  const int p = team.size();
  team.run([&](int rank) {
    // Block sizes differ by at most one: the first n % p members get one extra iteration.
    const std::int64_t base = n / p;
    const std::int64_t extra = n % p;
    const std::int64_t lo = begin + rank * base + (rank < extra ? rank : extra);
    const std::int64_t hi = lo + base + (rank < extra ? 1 : 0);
    for (std::int64_t i = lo; i < hi; ++i) body(i);
  });
}

}  // namespace rtpar
