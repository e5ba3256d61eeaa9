// node_queue.hpp — the shared-node policy of a team (engine.hpp, "Team models"): which eligible
// node that is not pinned to a thread a team thread takes next, and what taking it costs.
// One NodeQueue per model task; the engine asks it instead of knowing the team model, so that a
// model is a change here and not in the event loop.
#pragma once

#include <cstdint>
#include <limits>
#include <set>
#include <utility>

namespace rtpar::sim {

// kNeverNs is "no such time": the engine's and the queue's sentinel for an absent event.
inline constexpr std::int64_t kNeverNs = std::numeric_limits<std::int64_t>::max();

// add_or_throw is a + b, or an InputError naming `what` ("… exceeds 2^63 - 1 ns") when the sum
// would overflow int64: every time the simulator builds from inputs goes through it.
std::int64_t add_or_throw(std::int64_t a, std::int64_t b, const char* what);

// NodeQueueParams selects the policy: greedy (lowest index first, free) or centralized (FIFO,
// every enqueue and dequeue holds one lock for lock_ns).
struct NodeQueueParams {
  bool centralized = false;
  std::int64_t lock_ns = 0;
};

// NodeQueue holds one task's eligible shared nodes across its jobs.
class NodeQueue {
 public:
  // NodeQueue starts empty with the lock free.
  explicit NodeQueue(NodeQueueParams params) : params_(params) {}

  // push makes node n eligible at t. Returns true when a thread may take it now; false when it is
  // being enqueued under the lock and becomes takeable at next_due() (the engine calls advance).
  bool push(int n, std::int64_t t);

  // next_due is when the next node under an enqueue hold becomes takeable; kNeverNs: none.
  std::int64_t next_due() const {
    return enqueuing_.empty() ? kNeverNs : enqueuing_.begin()->first;
  }

  // advance makes takeable every node whose enqueue hold ended by t; true when there was one.
  bool advance(std::int64_t t);

  // front is the node the next take gets (-1: none): the lowest index (greedy) or the oldest.
  int front() const { return pool_.empty() ? -1 : pool_.begin()->second; }

  // pop removes front() (its last unit was taken).
  void pop() { pool_.erase(pool_.begin()); }

  // take_cost is what a take at t adds to the thread's piece: under the centralized model with a
  // lock, the wait for the lock (the thread spins on its core) plus the hold; else 0.
  std::int64_t take_cost(std::int64_t t);

 private:
  // hold_lock takes the lock at t for lock_ns and returns when the hold ends: it is granted when
  // free, in request order.
  std::int64_t hold_lock(std::int64_t t);

  NodeQueueParams params_;
  // pool_: takeable nodes by (order, node): order = node index (greedy) or the queue position
  // (centralized: the sequence number it got when it entered the queue).
  std::set<std::pair<std::int64_t, int>> pool_;
  std::int64_t enqueued_ = 0;      // centralized: nodes that entered the queue so far
  std::int64_t lock_free_at_ = 0;  // centralized: when the lock is next free
  // enqueuing_: (hold ends, node), nodes being enqueued under the lock (centralized).
  std::set<std::pair<std::int64_t, int>> enqueuing_;
};

}  // namespace rtpar::sim
