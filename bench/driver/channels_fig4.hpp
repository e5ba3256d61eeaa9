// channels_fig4.hpp — OpenMP-RT §5.4 Fig. 4 on rtpar channels: how often a consumer's first
// read of a 1 MB value fails (retry, numtries = 2) against the producer/consumer period ratio.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "driver/channels_work.hpp"
#include "rtpar/channel.hpp"
#include "rtpar/time.hpp"

namespace rtpar::bench {

// kFig4PayloadBytes is the message size: 1 MiB (the paper's "1MB image").
inline constexpr std::size_t kFig4PayloadBytes = std::size_t{1} << 20;

// Fig4Options is one sweep: for every kind, configuration and ratio P_p/P_c, a producer on core 0
// and a consumer on core 1, real-time or not per the configuration (the paper's RT→RT, RT→nRT and
// nRT→RT: the non-real-time side is a SCHED_OTHER thread pinned to its core, NrtLoop), the
// consumer's period fixed.
struct Fig4Options {
  std::vector<ChannelKind> kinds;
  std::vector<PairConfig> configs{PairConfig::rt_rt};
  std::vector<double> ratios;  // P_p / P_c
  Duration consumer_period{std::chrono::milliseconds(5)};
  Duration duration{std::chrono::seconds(1)};  // run length per cell
  bool best_effort = false;
  std::function<void(const std::string&)> progress;  // called before each cell (may be empty)
};

// Fig4Cell is one (kind, ratio) point.
//
// A read's first attempt failed when ReadResult.tries > 1 or !ok (with numtries = 2 the first
// is implied by the second: a read that fails reports tries = 2). Only the retry kind can fail
// a first attempt; for latest and double_buffer first_failed is 0 by construction and the
// interesting number is torn (ok, but words from different writes).
struct Fig4Cell {
  ChannelKind kind = ChannelKind::retry;
  PairConfig config = PairConfig::rt_rt;
  double ratio = 0.0;            // requested P_p / P_c
  double effective_ratio = 0.0;  // P_p / P_c as run (P_p is detuned, see channels_fig4.cpp)
  std::int64_t reads = 0;
  std::int64_t first_failed = 0;  // first attempt failed
  std::int64_t failed = 0;        // !ok after numtries attempts
  std::int64_t torn = 0;          // ok, yet the copy mixes two writes
  std::int64_t read_mean_ns = 0;  // mean wall time of one read() call
  std::int64_t writes = 0;        // producer jobs

  [[nodiscard]] double first_failed_pct() const { return pct(first_failed); }
  [[nodiscard]] double failed_pct() const { return pct(failed); }

 private:
  [[nodiscard]] double pct(std::int64_t n) const {
    return reads == 0 ? 0.0 : 100.0 * static_cast<double>(n) / static_cast<double>(reads);
  }
};

// run_fig4 measures every cell, kinds × configs × ratios. Throws EnvironmentError if SCHED_FIFO is
// refused (unless best_effort).
std::vector<Fig4Cell> run_fig4(const Fig4Options& options);

}  // namespace rtpar::bench
