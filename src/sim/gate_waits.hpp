// gate_waits.hpp — which gate a strand plan's thread waits at (engine.hpp, "gate spin"): the
// dispatcher's member, between its strands of segment j − 1 (or its commit) and gate j − 1,
// spins as its task's wait policy says before it sleeps (docs/internals/dispatcher.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/sim_model.hpp"

namespace rtpar::sim {

// GateWaits keeps each thread's pinned nodes in index order (its strands, segment by segment)
// and, per job, how far the thread has taken them.
class GateWaits {
 public:
  // GateWaits lists every thread's pinned nodes of `model` (which must outlive it).
  explicit GateWaits(const SimModel& model);
  // start_job rewinds the threads of `task` to their first node for a new job.
  void start_job(const SimTask& task);
  // waiting is the node thread th waits for at t — its first own node not yet taken (untaken > 0)
  // when that node still has unfinished predecessors (a gate not yet open), spins (SimNode::spin
  // > 0) and its offset has passed (before it the member sleeps) — or −1. untaken and preds are
  // the current job's per-node state, release its release time.
  int waiting(int th, const SimTask& task, const std::vector<std::int64_t>& untaken,
              const std::vector<int>& preds, std::int64_t release, std::int64_t t);

 private:
  std::vector<std::vector<int>> own_;  // per thread: its pinned nodes, ascending
  std::vector<std::size_t> cursor_;    // per thread: own_ nodes before it are taken or done
};

}  // namespace rtpar::sim
