// pool.hpp — pooling one row's samples over several runs of its program (the orchestrator's
// interleaved rounds) and recomputing its statistics from all of them.
//
// Rows arrive as the programs print them (result.hpp); their raw samples are read back from the
// CSV files each run wrote (samples_csv.hpp). Statistics are recomputed over the pooled samples
// with the programs' own summarize(), never averaged from per-run percentiles (which would be
// wrong for every percentile). Only the orchestrator includes this (it needs nlohmann::json).
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/samples_csv.hpp"
#include "common/stats.hpp"

namespace rtpar_bench {

// Pool gathers one row (runtime, construct) over all runs: the first run's JSON row (for its
// extra keys), every run's raw samples, and the extras that must be combined rather than copied.
struct Pool {
  nlohmann::ordered_json row;
  std::vector<std::int64_t> samples;
  std::int64_t overruns = 0;
  std::int64_t max_response_ns = 0;
  double share_weighted = 0.0;  // Σ all_threads_share × samples
  std::int64_t steal_ns = 0;    // host steal time on the measuring CPUs during the runs
  nlohmann::ordered_json probes = nlohmann::ordered_json::array();  // probe_rtt_ns of each run
};

// pool_run adds one program run's document to the pools (rows not seen before are appended, so
// the order is the order of first appearance) with the samples read from dir; steal_ns is the
// host steal time during that run (steal.hpp). Returns "" or why the run's output is unusable.
inline std::string pool_run(const nlohmann::ordered_json& doc, const std::filesystem::path& dir,
                            std::int64_t steal_ns, std::vector<Pool>& pools) {
  for (const auto& r : doc["results"]) {
    if (!r.contains("runtime") || !r.contains("construct") || !r.contains("samples")) {
      return "a result row lacks runtime, construct or samples";
    }
    const std::string rt = r["runtime"], c = r["construct"];
    auto it = std::find_if(pools.begin(), pools.end(), [&](const Pool& p) {
      return p.row["runtime"] == rt && p.row["construct"] == c;
    });
    if (it == pools.end()) {
      it = pools.insert(pools.end(), Pool{});
      it->row = r;
    }
    const std::size_t before = it->samples.size();
    std::string name = rt;
    name.append(".").append(c).append(".csv");
    const std::filesystem::path file = dir / name;
    if (!read_samples_csv(file.string(), it->samples) ||
        it->samples.size() - before != r["samples"].get<std::size_t>()) {
      return "missing or short samples file " + file.string();
    }
    it->overruns += r.value("overruns", std::int64_t{0});
    it->max_response_ns =
        std::max(it->max_response_ns, r.value("max_response_ns", std::int64_t{0}));
    it->share_weighted += r.value("all_threads_share", 1.0) * r["samples"].get<double>();
    it->probes.push_back(doc.value("probe_rtt_ns", std::int64_t{-1}));
    it->steal_ns += steal_ns;
  }
  return {};
}

// pooled_row is the final row of a pool: statistics over all runs' samples, combined extras, and
// "runs", "host_steal_ns" (summed over the runs) and "probe_rtt_ns" (one per run) added.
// Periodic rows (those with "overruns") also get "stalls": regions of at least stall_ns.
inline nlohmann::ordered_json pooled_row(const Pool& p, std::int64_t stall_ns) {
  const Summary s = summarize(p.samples);
  nlohmann::ordered_json r = p.row;
  r["mean_ns"] = s.mean_ns;
  r["p50_ns"] = s.p50_ns;
  r["p99_ns"] = s.p99_ns;
  r["p999_ns"] = s.p999_ns;
  r["max_ns"] = s.max_ns;
  r["min_ns"] = s.min_ns;
  r["samples"] = s.count;
  if (r.contains("overruns")) {
    r["overruns"] = p.overruns;
    r["stall_threshold_ns"] = stall_ns;
    r["stalls"] = std::count_if(p.samples.begin(), p.samples.end(),
                                [&](std::int64_t v) { return v >= stall_ns; });
  }
  if (r.contains("max_response_ns")) r["max_response_ns"] = p.max_response_ns;
  if (r.contains("all_threads_share") && s.count > 0) {
    r["all_threads_share"] = p.share_weighted / static_cast<double>(s.count);
  }
  r["runs"] = p.probes.size();
  r["host_steal_ns"] = p.steal_ns;
  r["probe_rtt_ns"] = p.probes;
  return r;
}

}  // namespace rtpar_bench
