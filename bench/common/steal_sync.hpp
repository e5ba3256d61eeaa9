// steal_sync.hpp — RTWS §IV-A's synchronous synthetic tasks, a kernel of `rtpar bench steal`
// (`--bench sync1|sync2|sync3`).
//
// A synchronous task is a sequence of segments; each segment is a parallel loop of independent
// nodes and ends in a barrier (the next segment starts when all its nodes are done). RTWS §IV-A
// draws, per task: 10–20 segments, and per segment a node count, and per node an execution time:
//   type 1: 100,000–200,000 nodes per segment, 5–10 ns per node      (many tiny nodes)
//   type 2:  10,000– 20,000 nodes per segment, 2,000–4,500 ns per node
//   type 3:   1,000–  2,000 nodes per segment, 20,000–50,000 ns per node (few long nodes)
// Draws are uniform, from a seed (splitmix64), so every program runs the same task. A node
// busy-works for its time (steal_sync_node) and stores a value, and the result is the checksum of
// all stored values: a skipped or repeated node changes it. `nodes_div` > 1 divides every
// segment's node count (the --quick path only; 1 = the paper's task).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/mix64.hpp"
#include "common/steal_rtws_leaves.hpp"

namespace rtpar_bench {

// SyncTask is one generated synchronous task and the buffer its nodes write.
struct SyncTask {
  int type = 1;
  std::uint64_t seed = 0;
  std::int64_t ns_lo = 0, ns_hi = 0;  // node execution time range (ns)
  std::vector<std::int64_t> start;    // segment s holds nodes [start[s], start[s+1])
  std::vector<std::uint32_t> out;     // one value per node

  // SyncTask draws a task of `type` (1..3) from `seed`, node counts divided by nodes_div.
  SyncTask(int task_type, std::uint64_t task_seed, int nodes_div)
      : type(task_type), seed(task_seed) {
    static constexpr std::int64_t kNodes[3][2] = {{100'000, 200'000}, {10'000, 20'000},
                                                  {1'000, 2'000}};
    static constexpr std::int64_t kNs[3][2] = {{5, 10}, {2'000, 4'500}, {20'000, 50'000}};
    const int t = std::clamp(type, 1, 3) - 1;
    ns_lo = kNs[t][0];
    ns_hi = kNs[t][1];
    std::uint64_t state = seed;
    auto draw = [&state](std::int64_t lo, std::int64_t hi) {  // uniform in [lo, hi]
      state += 0x9E3779B97F4A7C15ull;
      const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
      return lo + static_cast<std::int64_t>(mix64(state) % span);
    };
    const std::int64_t segments = draw(10, 20);
    start.push_back(0);
    for (std::int64_t s = 0; s < segments; ++s) {
      const std::int64_t n = std::max<std::int64_t>(1, draw(kNodes[t][0], kNodes[t][1]) /
                                                           std::max(1, nodes_div));
      start.push_back(start.back() + n);
    }
    out.assign(static_cast<std::size_t>(start.back()), 0);
  }

  // segments is the task's segment count.
  [[nodiscard]] int segments() const { return static_cast<int>(start.size()) - 1; }

  // node_ns is node i's execution time, drawn from the seed and its global index.
  [[nodiscard]] std::int64_t node_ns(std::int64_t i) const {
    const std::uint64_t h = mix64(seed ^ (static_cast<std::uint64_t>(i) + 1) *
                                                               0xD1B54A32D192ED03ull);
    return ns_lo + static_cast<std::int64_t>(h % static_cast<std::uint64_t>(ns_hi - ns_lo + 1));
  }

  // node runs node i (global index) and stores its value.
  void node(std::int64_t i) {
    out[static_cast<std::size_t>(i)] = steal_sync_node(seed ^ static_cast<std::uint64_t>(i),
                                                       node_ns(i));
  }

  // reset clears the outputs (untimed, before each repetition).
  void reset() { std::fill(out.begin(), out.end(), 0u); }

  // serial runs every segment's nodes in order.
  void serial() {
    for (std::int64_t i = 0; i < start.back(); ++i) node(i);
  }

  // checksum folds the outputs (equal for every correct run).
  [[nodiscard]] std::uint64_t checksum() const {
    std::uint64_t h = 0x243F6A8885A308D3ull;
    for (std::uint32_t v : out) h = mix64(h ^ v);
    return h;
  }

  // size names the task for the row: type, seed, segments, nodes and the node time range.
  [[nodiscard]] std::string size() const {
    return "type=" + std::to_string(type) + ",seed=" + std::to_string(seed) +
           ",segments=" + std::to_string(segments()) + ",nodes=" + std::to_string(start.back()) +
           ",node_ns=" + std::to_string(ns_lo) + "-" + std::to_string(ns_hi);
  }
};

}  // namespace rtpar_bench
