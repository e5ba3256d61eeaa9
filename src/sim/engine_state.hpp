// engine_state.hpp — the simulation engine's per-thread and per-task state (engine.cpp), apart
// so that the engine's file holds its rules.
#pragma once

#include <compare>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "core/checked_math.hpp"
#include "sim/node_queue.hpp"

namespace rtpar::sim {

// Urgency orders threads on a core: larger compares as more urgent. EDF tasks form band 1 (above
// every fixed-priority thread, band 0); within EDF the value is the negated absolute deadline.
// Band 2 is a thread non-preemptive under MSRP (lock_sections.hpp), band 3 a supply blackout.
struct Urgency {
  int band = 0;
  std::int64_t value = 0;
  auto operator<=>(const Urgency&) const = default;
};

// Busy is what a thread holds that is not a node's piece: a failed steal attempt, or the
// spawning of the nodes its last node enabled (ThreadState::spawning), both steal model; or
// (strand plans) a spin at a gate, waiting for the pinned node spin_node's predecessors.
enum class Busy { no, attempt, spawn, spin };
// ThreadState is what one thread holds and how long it has been ready.
struct ThreadState {
  int node = -1;              // node of the piece in hand, or -1
  Busy busy = Busy::no;       // with node −1: an attempt or a spawn in hand
  std::vector<int> spawning;  // steal: nodes it enabled, pushed when its spawn piece ends
  int spin_node = -1;         // Busy::spin: the node it waits for
  std::size_t cursor = 0;     // own_ nodes before it are taken or done in this job
  std::int64_t left = 0;      // execution left in that piece
  std::int64_t ready_since = 0;
  bool ready = false;
  bool preempted = false;  // switched out holding a piece: pays the context switch on resume
  bool lock_spin = false;  // spins for a global lock (lock_sections.hpp): `left` is on hold
};
// TaskState is the current job of one task and the releases waiting behind it.
struct TaskState {
  std::int64_t next_release = 0;
  std::deque<std::int64_t> queued;  // releases waiting for the current job (overrun = queue)
  bool active = false;
  std::int64_t release = 0;           // of the current job
  std::vector<int> preds;             // unfinished predecessors per node
  std::vector<std::int64_t> length;   // this job's length per node (with its draws)
  std::vector<std::int64_t> untaken;  // execution not yet handed to a thread, per node
  std::vector<int> outstanding;       // pieces in threads' hands, per node
  std::size_t done = 0;               // nodes finished
  std::optional<NodeQueue> queue;     // eligible shared nodes (the team model's policy)
  std::set<std::pair<std::int64_t, int>> pending;  // (eligible time, node) waiting for offsets
  std::int64_t timer = kNeverNs;  // its key in timers_: next release or offset (kNeverNs: none)
};

}  // namespace rtpar::sim
