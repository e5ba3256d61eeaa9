// rtpar/team.hpp — the fork/join team that runs one parallel job on a task's cores.
//
// Extension point: Team is an interface; make_team() builds rtpar's implementation (wait-free
// fork/join with spin, block or hybrid waiting and tree wake-up, see
// docs/internals/forkjoin.md). Another runtime can be plugged in behind the same interface.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "rtpar/function_ref.hpp"
#include "rtpar/member_job_hooks.hpp"
#include "rtpar/thread_config.hpp"
#include "rtpar/time.hpp"
#include "rtpar/wait_policy.hpp"

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
  // finished. Must be called by the master thread only; regions do not nest. Takes no lock, does
  // not allocate, and makes no system call unless a member is asleep (block/hybrid policies).
  virtual void run(FunctionRef<void(int rank)> fn) = 0;

  // start is the fork half of run(): the workers begin fn(rank) for rank >= 1 and start returns
  // at once, so the master can run its own share (rank 0) in its caller's frame — what OpenMP's
  // GOMP_parallel_start needs. fn must stay alive until finish() returns. run(fn) is start(fn),
  // fn(0), finish().
  virtual void start(const FunctionRef<void(int rank)>& fn) = 0;

  // finish is the join half of run(): it waits until every worker finished the region start()
  // began — and every region before it, since arrivals are counted cumulatively. So a caller
  // whose regions synchronize their members themselves (OpenMP's region-end barrier) may call it
  // late or skip it for a region: the next start() is safe once the caller knows every worker is
  // past its last read of the caller's data, because a worker cannot miss a fork while the next
  // region waits for it (src/omp/parallel.cpp parallel_end).
  virtual void finish() = 0;

  // barrier waits, inside a region, until every member has reached it. Every member must call it
  // the same number of times in a region.
  virtual void barrier() = 0;

  // park tells the workers that the job is over: they stop spinning and sleep until the next
  // run(). The executor calls it after every job. Cheap (one store); never blocks.
  virtual void park() noexcept = 0;

  // expect_release tells the team when its next job is released: release_ns is an absolute
  // CLOCK_MONOTONIC time (monotonic_now()'s clock). A worker that goes to sleep waiting for a fork
  // (between jobs after park(), or inside a job under the block policy) then sleeps on its own
  // absolute timer, on its own core, until TeamConfig::release_lead before that instant and spins
  // for the fork until TeamConfig::release_window after it — so a fork at the release finds the
  // workers running instead of waking them one futex wake-up at a time. A job that forks after a
  // sequential prefix is learned: the workers aim at the release plus the smallest first-fork
  // offset of the last 16 jobs. A fork later than the
  // window wakes them as usual; a fork before the timer wakes them at once. The executor calls it
  // at the start of every job with the following release. Only a hint: never needed for
  // correctness (the default implementation ignores it). Cheap (one store); never blocks.
  virtual void expect_release(std::int64_t release_ns) noexcept { static_cast<void>(release_ns); }

  // worker_tids lists the Linux thread ids of the workers (for reports and traces).
  [[nodiscard]] virtual std::vector<int> worker_tids() const = 0;
};

// TeamConfig describes the members of a team: one ThreadConfig per member; members[0] describes
// the master (the caller of run(), which the team does not create).
struct TeamConfig {
  std::vector<ThreadConfig> members;
  WaitPolicy wait;          // waiting inside a job
  int tree_wakeup_min = 4;  // block/hybrid: at or above this size, woken workers wake the rest
                            // (a binary tree, FJOS's multicast) instead of the master alone
  // release_lead: after Team::expect_release, how long before the release a sleeping worker's
  // timer fires at least, so that it spins at the release rather than waking after the master
  // forked. Each worker adds its own recent timer lateness (the largest of its last 16 timer
  // wake-ups), so a core that wakes slowly sets its timer earlier; the sum never exceeds
  // release_window.
  Duration release_lead{std::chrono::microseconds(20)};
  // release_window: how long after the expected release a worker keeps spinning for the fork
  // before it sleeps until woken, and the most a worker's timer fires before it. Bounds the spin
  // between jobs at SCHED_FIFO to 2 x release_window per release.
  Duration release_window{std::chrono::microseconds(200)};
  // member_hooks, when set, is told on each worker's thread when its part of a job begins and ends
  // (MemberJobHooks); it must outlive the team. A worker's job begins at its first region of the
  // job and ends when, waiting for a fork, it sees park() — or, asleep then, at the next job's
  // first region.
  MemberJobHooks* member_hooks = nullptr;
};

// make_team creates the team: workers are created pinned at their configured scheduling class
// before this returns and start asleep. Throws EnvironmentError if the kernel refuses the
// scheduling class.
std::unique_ptr<Team> make_team(const TeamConfig& config);

// Range is the half-open iteration space [begin, end) of a parallel loop.
struct Range {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

// Schedule says how a parallel loop's iterations are divided among the members.
struct Schedule {
  enum class Kind { static_blocks, dynamic } kind = Kind::static_blocks;
  std::int64_t chunk = 1;  // dynamic: iterations taken per grab

  // static_blocks: one contiguous block per member, sizes differing by at most one — each
  // member's share is known in advance, the real-time default (FJOS §II).
  static Schedule static_blocks() { return {Kind::static_blocks, 1}; }
  // dynamic: members grab `chunk` iterations at a time from a shared counter (fetch-and-add).
  static Schedule dynamic(std::int64_t chunk) { return {Kind::dynamic, chunk < 1 ? 1 : chunk}; }
};

// parallel_for runs body(i) for every i in range on the team's members, as schedule divides them,
// and returns when all are done. Allocation-free: the dynamic counter lives on the caller's stack.
template <class Body>
void parallel_for(Team& team, Range range, Body&& body,
                  Schedule schedule = Schedule::static_blocks()) {
  const std::int64_t n = range.end > range.begin ? range.end - range.begin : 0;
  const int p = team.size();
  if (schedule.kind == Schedule::Kind::static_blocks) {
    team.run([&](int rank) {
      // The first n % p members take one extra iteration.
      const std::int64_t base = n / p;
      const std::int64_t extra = n % p;
      const std::int64_t lo = range.begin + rank * base + (rank < extra ? rank : extra);
      const std::int64_t hi = lo + base + (rank < extra ? 1 : 0);
      for (std::int64_t i = lo; i < hi; ++i) body(i);
    });
    return;
  }
  // Relaxed is enough: the counter only hands out disjoint index ranges; the join publishes the
  // members' writes to the caller.
  std::atomic<std::int64_t> next{range.begin};
  const std::int64_t chunk = schedule.chunk;
  team.run([&](int) {
    for (;;) {
      // relaxed: disjoint ranges come from the RMW's atomicity alone (see above).
      const std::int64_t lo = next.fetch_add(chunk, std::memory_order_relaxed);
      if (lo >= range.end) return;
      const std::int64_t hi = lo + chunk < range.end ? lo + chunk : range.end;
      for (std::int64_t i = lo; i < hi; ++i) body(i);
    }
  });
}

// parallel_for_static is parallel_for with the static schedule over [begin, end).
template <class Body>
void parallel_for_static(Team& team, std::int64_t begin, std::int64_t end, Body&& body) {
  parallel_for(team, Range{begin, end}, static_cast<Body&&>(body), Schedule::static_blocks());
}

}  // namespace rtpar
