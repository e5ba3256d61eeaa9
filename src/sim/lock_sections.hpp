// lock_sections.hpp — the critical sections of a set's `lock` channels in the simulator: where
// each job's sections sit in its execution, and the two protocols the engine runs them under
// (docs/internals/simulation.md, "Locks").
//
// Placement. Each job of each user of lock ℓ makes ℓ.accesses sections of ℓ, each hold long (the
// worst case; under an execution range other than [1, 1] each section's length is hold × f with
// f drawn like the nodes' factors, at least 1 ns). A section is part of the job's work, never
// extra: it lies inside one node (a strand, a DAG node, a segment rank, the chain or one unit of
// a bag, so that one thread runs it whole). The job's units are its nodes with work (a bag split
// into its units); each section in turn goes to a unit with room for it, drawn with probability
// proportional to the room left; in a unit its sections get uniformly random, non-overlapping
// positions (gaps drawn as sorted uniform points, the sections in random order). A section that
// fits nowhere (a job drawn shorter than its sections) is cut to the largest room, or dropped
// when none is left. Sections never nest. Draws come from xoshiro256** (src/core/rng.hpp) seeded
// with derive_seed over (seed's lock domain, the task's TaskSet index, the job's release index):
// a function of those numbers only, and a set without locks draws nothing.
//
// Protocols (SimLock::local):
//  * local (every user a one-thread fixed-priority task, all on one core): the immediate
//    priority ceiling — in a section a thread runs at max(own priority, ceiling). A request
//    always finds the lock free (checked: a violation throws std::logic_error);
//  * global: MSRP (Gai, Lipari and Di Natale, RTSS 2001) — from its request until its release
//    a thread is non-preemptive (above every task on its core; only a supply blackout, which is
//    the core's absence, interrupts it); requests are granted in FIFO order of request time;
//    while it waits it spins: its core stays busy and it makes no progress.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "core/rng.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/simulate.hpp"
#include "sim/sim_model.hpp"

namespace rtpar::sim {

// sim_locks is SimModel::locks for `set` once `model`'s tasks and threads are placed: each lock
// channel's placed real-time users (kNonRtEndpoint and unplaced tasks have no simulated thread),
// and whether it is local, with its ceiling.
std::vector<SimLock> sim_locks(const SimModel& model, const TaskSet& set);

// LockMode is what a thread's lock state does to its urgency: nothing, the local ceiling, or
// MSRP's non-preemption (requesting or holding a global lock).
enum class LockMode { none, ceiling, nonpreemptive };

// LockStep is the engine's next move once a step of a thread's piece has run out.
struct LockStep {
  bool more = false;      // false: the piece is done (finish it as usual)
  std::int64_t left = 0;  // more: the next step's execution
  bool spin = false;      // more: the thread now spins for a global lock (left unused)
  int granted = -1;       // a thread that was just granted the lock this one released, or −1
  std::int64_t granted_left = 0;  // that thread's section length
};

// LockSections places each job's sections and runs the protocols for the engine, which splits a
// piece that contains sections into steps: plain execution, section, plain execution, ...
class LockSections {
 public:
  // LockSections prepares for `model` (which must outlive it) under the run's seed and
  // execution range.
  LockSections(const SimModel& model, const SimOptions& settings);

  // active says whether the model has any lock (otherwise no other member needs calling).
  bool active() const { return !m_.locks.empty(); }

  // start_job places the sections of task ti's job with release index `job`, whose node lengths
  // are `length` (TaskState::length).
  void start_job(int ti, std::uint64_t job, const std::vector<std::int64_t>& length);

  // take splits the piece thread th takes: node n's execution [begin, begin + piece) of task ti,
  // plus `cost` ns of take cost before it. Returns the first step's length (the whole piece with
  // its cost when it holds no section; possibly 0 before a section that starts it).
  std::int64_t take(int th, int ti, int n, std::int64_t begin, std::int64_t piece,
                    std::int64_t cost);

  // next ends thread th's current step at t (releasing its lock after a section, which may grant
  // it to the first waiter) and starts the next one (requesting a lock before a section).
  LockStep next(int th, std::int64_t t);

  // mode is thread th's lock state's effect on its urgency; ceiling its ceiling under `ceiling`.
  LockMode mode(int th) const;
  int ceiling(int th) const;

  // results are the per-lock statistics so far, in SimModel::locks order.
  std::vector<SimLockResult> results() const { return stats_; }

 private:
  // Section is one critical section of the current job: at `offset` in its node's execution.
  struct Section {
    std::int64_t offset = 0;
    std::int64_t length = 0;
    int lock = 0;
  };
  // Step is one part of a thread's piece: plain execution (lock −1) or a section of `lock`.
  struct Step {
    std::int64_t length = 0;
    int lock = -1;
  };
  // LockState is who holds a lock, who spins for it (FIFO) and since when it is held.
  struct LockState {
    int holder = -1;
    std::deque<int> waiters;
    std::int64_t granted_at = 0;
  };

  // section_length draws one section's length from the lock's hold (see the file comment).
  std::int64_t section_length(std::int64_t hold, Rng& rng) const;
  // request asks for lock ℓ for thread th at t: true when granted at once.
  bool request(int th, int lock, std::int64_t t);
  // grant gives lock ℓ to thread th at t, which asked for it at `asked`.
  void grant(int th, int lock, std::int64_t asked, std::int64_t t);

  const SimModel& m_;
  std::uint64_t seed_ = 0;
  std::int64_t min_ppm_ = kExecutionPpm, max_ppm_ = kExecutionPpm;
  std::vector<std::vector<int>> task_locks_;                 // per model task: its locks
  std::vector<std::vector<std::vector<Section>>> sections_;  // per task, per node, by offset
  std::vector<std::vector<Step>> steps_;                     // per thread: its piece's steps
  std::vector<std::size_t> step_at_;                         // per thread: the current step
  std::vector<int> in_lock_;          // per thread: the lock it requested or holds, or −1
  std::vector<std::int64_t> asked_;   // per thread: when it requested in_lock_
  std::vector<LockState> state_;      // per lock
  std::vector<SimLockResult> stats_;  // per lock
};

}  // namespace rtpar::sim
