// rtpar/steal_config.hpp — the memory budget of a task's work-stealing runtime (runtime = "steal").
//
// Every byte the work-stealing scheduler uses is allocated when the task starts, sized from these
// fields; exceeding them is a reported error at the spawn site (docs/internals/steal.md).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rtpar {

// StealConfig is the per-task budget of the work-stealing runtime ([task.steal] in the file).
struct StealConfig {
  int max_depth = 512;                 // deepest nesting of join/spawn inside one job
  std::size_t stack_bytes = 8u << 20;  // call stack of each worker thread
  int frames_per_worker = 4096;        // spawn frames (scope children) per worker
  // profile_depth is the join depth from which the online work/span profile stops timing joins:
  // a subtree started there counts its elapsed time as its span (0 = only the whole job is
  // timed). Not memory; a cost/precision trade-off (docs/internals/steal.md §5).
  int profile_depth = 12;
  // idle_spin_ns is how long a worker spins after a run for the next one before it sleeps on a
  // futex: back-to-back runs then start without a wake-up. Not memory. The executor sets it to 0
  // for tasks whose cores other tasks share, where the spin would be unanalysed interference.
  std::int64_t idle_spin_ns = 20'000;
};

}  // namespace rtpar
