// recorder.hpp — collects a program's result rows, dumps raw samples, prints the JSON.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/harness.hpp"
#include "common/options.hpp"
#include "common/pingpong.hpp"
#include "common/result.hpp"
#include "common/samples_csv.hpp"
#include "common/stats.hpp"

namespace rtpar_bench {

// Recorder turns samples into rows tagged with how they were measured.
class Recorder {
 public:
  // Recorder remembers the options (threads, --fifo, --samples) and whether memory is locked.
  Recorder(const Options& options, bool memory_locked)
      : options_(options), memory_locked_(memory_locked) {}

  // add summarizes samples as the row (runtime, construct), dumps them if --samples was given,
  // and returns the row so the caller can attach extra keys.
  Result& add(const std::string& runtime, const std::string& construct,
              const std::vector<std::int64_t>& samples) {
    if (!write_samples_csv(options_.samples_dir, runtime, construct, samples)) ok_ = false;
    Result row;
    row.runtime = runtime;
    row.construct = construct;
    row.threads = options_.threads;
    row.summary = summarize(samples);
    row.add("sched", std::string(options_.fifo ? "fifo" : "other"));
    if (options_.fifo) row.add("priority", static_cast<std::int64_t>(options_.priority));
    row.add("mlocked", memory_locked_);
    rows_.push_back(std::move(row));
    return rows_.back();
  }

  // add_periodic records a periodic run as two rows: `construct` (the region times, with overruns
  // and the max response) and `construct`-response (release → region end), and returns the first.
  Result& add_periodic(const std::string& runtime, const std::string& construct,
                       const PeriodicRun& run) {
    add(runtime, construct + "-response", run.response_ns).add("period_ns", options_.period_ns);
    Result& row = add(runtime, construct, run.region_ns);
    row.add("period_ns", options_.period_ns);
    row.add("overruns", run.overruns);
    row.add("max_response_ns", run.max_response_ns);
    return row;
  }

  // probe measures the host's spin round trip between the first two measuring CPUs
  // (pingpong.hpp, probe_rtt_ns). Call it before the runtime starts threads of its own.
  void probe(const std::vector<int>& cpus) {
    probe_rtt_ns_ = probe_rtt_ns(cpus.at(0), cpus.at(1), options_.fifo, options_.priority);
  }

  // print writes the JSON document on stdout.
  void print() const { print_results(stdout, rows_, probe_rtt_ns_); }

  // ok is false if a samples file could not be written.
  [[nodiscard]] bool ok() const { return ok_; }

 private:
  const Options& options_;
  bool memory_locked_;
  bool ok_ = true;
  std::int64_t probe_rtt_ns_ = -1;
  std::vector<Result> rows_;
};

}  // namespace rtpar_bench
