// channels_fig3.hpp — OpenMP-RT §5.3 Fig. 3 on rtpar channels: consumer response time vs total
// utilization, two producer/consumer pairs on two cores, a 64×64 int32 matrix per message.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "driver/channels_work.hpp"
#include "rtpar/channel.hpp"
#include "rtpar/time.hpp"

namespace rtpar::bench {

// Fig3Options is one sweep. Utilization is the total over both cores (the paper's x axis, 0..2);
// each pair gets half of it, split producer_share : 1 - producer_share between its two jobs.
struct Fig3Options {
  std::vector<ChannelKind> kinds;
  std::vector<PairConfig> configs;
  std::vector<double> utilizations;
  Duration period{std::chrono::milliseconds(10)};  // every task, producer and consumer alike
  Duration duration{std::chrono::seconds(1)};      // run length per cell
  double producer_share = 0.4;
  // split puts producer i on core i and consumer i on core 1-i (reads and writes then really
  // overlap); the default keeps pair i on core i as in the brief.
  bool split = false;
  bool best_effort = false;
  std::function<void(const std::string&)> progress;  // called before each cell (may be empty)
};

// Fig3Cell is one measured (kind, config, utilization) point. When the task set is refused
// (lock across the RT/nRT boundary), refused holds the loader's reason and the numbers are 0.
struct Fig3Cell {
  ChannelKind kind = ChannelKind::latest;
  PairConfig config = PairConfig::rt_rt;
  double utilization = 0.0;
  std::optional<std::string> refused;
  std::int64_t mean_ns = 0;  // consumer response: RT finish - release; nRT per-iteration
  std::int64_t p99_ns = 0;
  std::int64_t max_ns = 0;
  std::int64_t jobs = 0;    // consumer jobs measured (both pairs)
  std::int64_t misses = 0;  // consumer responses longer than the period (= deadline)
  std::int64_t reads = 0;   // consumer reads
  std::int64_t failed = 0;  // reads that reported !ok (retry after numtries = 2)
  std::int64_t torn = 0;    // reads that reported ok but whose checksum did not match
};

// run_fig3 measures every cell of the sweep, in kinds × configs × utilizations order. Throws
// EnvironmentError if SCHED_FIFO is refused (unless best_effort).
std::vector<Fig3Cell> run_fig3(const Fig3Options& options);

}  // namespace rtpar::bench
