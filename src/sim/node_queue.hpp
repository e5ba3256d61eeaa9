// node_queue.hpp — the shared-node policy of a team (engine.hpp, "Team models"): which eligible
// node that is not pinned to a thread a team thread takes next, and what taking it costs.
// One NodeQueue per model task; the engine asks it instead of knowing the team model, so that a
// model is a change here and not in the event loop.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <set>
#include <utility>
#include <vector>

namespace rtpar::sim {

// kNeverNs is "no such time": the engine's and the queue's sentinel for an absent event.
inline constexpr std::int64_t kNeverNs = std::numeric_limits<std::int64_t>::max();

// add_or_throw is a + b, or an InputError naming `what` ("… exceeds 2^63 - 1 ns") when the sum
// would overflow int64: every time the simulator builds from inputs goes through it.
std::int64_t add_or_throw(std::int64_t a, std::int64_t b, const char* what);

// mul_or_throw is a · b, or the same InputError when the product would overflow int64.
std::int64_t mul_or_throw(std::int64_t a, std::int64_t b, const char* what);

// QueueModel is the policy: greedy (lowest index first, free), centralized (FIFO behind one
// lock) or steal (randomized work stealing over per-worker deques).
enum class QueueModel { greedy, centralized, steal };

// NodeQueueParams configures one task's queue.
struct NodeQueueParams {
  QueueModel model = QueueModel::greedy;
  std::int64_t lock_ns = 0;  // centralized: hold per enqueue and dequeue, uncontended
  // centralized: contention_ns is added to a hold per other worker holding or waiting for the lock
  // when it is requested (queue_hold); grain_ns > 0 makes a node of declared length L stand for
  // ⌈L/grain_ns⌉ real tasks, each of which pays its own hold (`lengths`: the nodes' lengths).
  std::int64_t contention_ns = 0;
  std::int64_t grain_ns = 0;
  std::vector<std::int64_t> lengths;
  // steal: steal_ns added to a successful steal's piece; attempt_ns, a failed attempt's length.
  std::int64_t steal_ns = 0;
  std::int64_t attempt_ns = 0;
  int workers = 1;              // steal: the team's threads (worker 0 = the master)
  std::uint64_t seed = 0;       // steal: the victim streams' seed
  std::uint64_t set_index = 0;  // steal: the task's TaskSet index (a key of the streams)
  bool thieves = true;          // steal: the task has shared work (else no worker tries to steal)
};

// Take is what a worker gets when it asks for work: a node (node ≥ 0) and what taking it adds to
// its piece (lock wait and hold, or the steal cost), or, under steal with nothing found
// (node < 0), a failed attempt of `cost` ns after which it asks again.
struct Take {
  int node = -1;
  std::int64_t cost = 0;
  int from = -1;     // steal: the deque it came from; -1: the pool (greedy, centralized)
  bool top = false;  // steal: taken from the deque's top (a steal) rather than its bottom
};

// NodeQueue holds one task's eligible shared nodes across its jobs.
class NodeQueue {
 public:
  // NodeQueue starts empty with the lock free.
  explicit NodeQueue(NodeQueueParams params);

  // start_job resets the per-job steal streams: job is the release index k (release = φ + kT).
  void start_job(std::uint64_t job);

  // push makes node n eligible at t, enabled by `worker` (−1: by the release or an offset, which
  // under steal goes to worker 0's deque). Returns true when a thread may take it now; false when
  // it is being enqueued under the lock and becomes takeable at next_due() (then call advance).
  bool push(int n, std::int64_t t, int worker);

  // next_due is when the next node under an enqueue hold becomes takeable; kNeverNs: none.
  std::int64_t next_due() const {
    return enqueuing_.empty() ? kNeverNs : enqueuing_.begin()->first;
  }

  // advance makes takeable every node whose enqueue hold ended by t; true when there was one.
  bool advance(std::int64_t t);

  // front is the node `worker` would take without stealing (-1: none): the pool's lowest index
  // (greedy) or oldest (centralized), or the bottom of the worker's own deque (steal).
  int front(int worker) const;

  // steals says whether an idle worker tries to steal (the steal model, ≥ 2 workers, shared work).
  bool steals() const {
    return params_.model == QueueModel::steal && params_.workers > 1 && params_.thieves;
  }

  // take is what `worker` gets at t: front(worker) if any, with take_cost; else (steal) one
  // attempt on a random victim. It removes nothing: call used_up when the node's last unit goes.
  Take take(int worker, std::int64_t t);

  // used_up removes the node `taken` got from where it was.
  void used_up(const Take& taken);

  // locked says whether the centralized queue has a lock that costs anything.
  bool locked() const { return params_.lock_ns > 0 || params_.contention_ns > 0; }

 private:
  // hold_lock takes the lock at t for `worker` (−1: the release) to move node n and returns when
  // the hold ends: it is granted when free, in request order, and lasts queue_hold(...).
  std::int64_t hold_lock(std::int64_t t, int worker, int n);

  NodeQueueParams params_;
  // pool_: takeable nodes by (order, node): order = node index (greedy) or the queue position
  // (centralized: the sequence number it got when it entered the queue).
  std::set<std::pair<std::int64_t, int>> pool_;
  std::int64_t enqueued_ = 0;      // centralized: nodes that entered the queue so far
  std::int64_t lock_free_at_ = 0;  // centralized: when the lock is next free
  // pending_: (hold ends, worker slot) of the holds not over yet, in grant order; per_worker_ counts
  // them per slot (worker + 1) and contenders_ the slots with at least one (centralized).
  std::deque<std::pair<std::int64_t, int>> pending_;
  std::vector<int> per_worker_;
  int contenders_ = 0;
  // enqueuing_: (hold ends, node), nodes being enqueued under the lock (centralized).
  std::set<std::pair<std::int64_t, int>> enqueuing_;
  std::vector<std::deque<int>> deques_;  // steal: per worker, front = top, back = bottom
  std::vector<std::uint64_t> attempts_;  // steal: attempts per worker in this job
  std::uint64_t job_ = 0;                // steal: the current job's release index
};

// queue_hold is how long one lock hold of the centralized queue lasts for a node standing for
// `units` ≥ 1 real tasks when `others` other workers already hold or wait for the lock:
// units · (lock_ns + others · contention_ns). Why linear in the waiters: a spin lock's handoff moves
// the lock's cache line through every spinning core (Anderson 1990; Mellor-Crummey and Scott 1991;
// Boyd-Wickizer et al. 2012, "Non-scalable locks are dangerous"), which is how GNU OpenMP's central
// task queue loses to Cilk Plus as cores grow (RTWS §IV-A, Table I type 1). The parameters are
// fitted to Table I by tools/fit_queue_contention.py (docs/experiments.md "RTWS Fig. 8").
// Throws InputError on int64 overflow.
std::int64_t queue_hold(std::int64_t lock_ns, std::int64_t contention_ns, int others,
                        std::int64_t units);

// grain_units is the number of real tasks a node of `length` ns stands for at `grain` ns each:
// ⌈length/grain⌉, at least 1; 1 when grain ≤ 0 (no coarse-graining).
std::int64_t grain_units(std::int64_t length, std::int64_t grain);

// steal_victim is the victim of attempt `attempt` of `worker` in job `job` of the task with
// TaskSet index `task` under `seed`: uniform over the other workers of a team of `workers` ≥ 2,
// from xoshiro256** (src/core/rng.hpp) seeded with derive_seed over (seed's steal domain, task,
// job, worker, attempt) — a pure function of those numbers, never of the order of events.
int steal_victim(std::uint64_t seed, std::uint64_t task, std::uint64_t job, int worker,
                 std::uint64_t attempt, int workers);

}  // namespace rtpar::sim
