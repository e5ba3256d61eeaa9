// rtpar/steal_config.hpp — the memory budget of a task's work-stealing runtime (runtime = "steal").
//
// Every byte the work-stealing scheduler uses is allocated when the task starts, sized from these
// fields; exceeding them is a reported error at the spawn site (docs/internals/steal.md).
#pragma once

#include <cstddef>

namespace rtpar {

// StealConfig is the per-task budget of the work-stealing runtime ([task.steal] in the file).
struct StealConfig {
  int max_depth = 512;                 // deepest nesting of join/spawn inside one job
  std::size_t stack_bytes = 8u << 20;  // call stack of each worker thread
  int frames_per_worker = 4096;        // spawn frames (scope children) per worker
};

}  // namespace rtpar
