// merged_rows.hpp — reading the orchestrator's merged rows: lookup by (runtime, construct),
// same-run ratios, the targets (rtpar issue 3, item 4) and the host-probe drift check.
// Only the orchestrator includes this (it needs nlohmann::json).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace rtpar_bench {

// Json is the orchestrator's JSON type: ordered, so rows keep the programs' key order.
using Json = nlohmann::ordered_json;

// Key identifies a row: (runtime, construct).
using Key = std::pair<std::string, std::string>;

// row_index maps each row to its JSON object, for the ratio columns and the targets.
inline std::map<Key, const Json*> row_index(const Json& rows) {
  std::map<Key, const Json*> index;
  for (const Json& r : rows) index[{r["runtime"], r["construct"]}] = &r;
  return index;
}

// ratio is field(a) / field(b), if both rows exist and the denominator is positive.
inline std::optional<double> ratio(const std::map<Key, const Json*>& ix, const Key& a, const Key& b,
                                   const char* field) {
  auto ia = ix.find(a), ib = ix.find(b);
  if (ia == ix.end() || ib == ix.end()) return std::nullopt;
  const double denom = (*ib->second)[field].get<double>();
  if (denom <= 0) return std::nullopt;
  return (*ia->second)[field].get<double>() / denom;
}

// targets evaluates the issues' goals (rtpar issue 3, item 4; issue 14) on the merged rows; each
// entry names the goal, the measured value and the limit. Goals whose rows are missing are left
// out.
inline Json targets(const Json& rows) {
  const auto ix = row_index(rows);
  Json out = Json::array();
  auto add = [&](const std::string& what, std::optional<double> v, double limit) {
    if (v) out.push_back({{"target", what}, {"value", *v}, {"limit", limit}, {"met", *v <= limit}});
  };
  const Key futex{"floor", "futex-pingpong"};
  for (const char* c : {"region", "parallel_for"}) {
    const Key spin{"rtpar-spin", c}, block{"rtpar-block", c}, hybrid{"rtpar-hybrid", c};
    const Key active{"libgomp-active", c}, passive{"libgomp-passive", c};
    add(std::string(c) + " rtpar-spin mean / libgomp-active mean",
        ratio(ix, spin, active, "mean_ns"), 0.3);
    add(std::string(c) + " rtpar-spin p99.9 / libgomp-active p99.9",
        ratio(ix, spin, active, "p999_ns"), 0.5);
    add(std::string(c) + " rtpar-block mean / libgomp-passive mean",
        ratio(ix, block, passive, "mean_ns"), 1.0);
    add(std::string(c) + " rtpar-block mean / futex-pingpong mean",
        ratio(ix, block, futex, "mean_ns"), 1.3);
    add(std::string(c) + " rtpar-hybrid mean / rtpar-spin mean", ratio(ix, hybrid, spin, "mean_ns"),
        1.2);
  }
  // Release latency (issue 14): back-to-back spin fork/join against one spin round trip; the
  // periodic response (release → region end) against the timer floor and libgomp passive.
  add("region rtpar-spin mean / spin-pingpong mean",
      ratio(ix, {"rtpar-spin", "region"}, {"floor", "spin-pingpong"}, "mean_ns"), 1.3);
  for (const char* w : {"rtpar-block", "rtpar-hybrid"}) {
    const Key p{w, "periodic-region-response"};
    add("periodic response " + std::string(w) + " p99 / timer-wakeup p99",
        ratio(ix, p, {"floor", "timer-wakeup"}, "p99_ns"), 2.0);
    add("periodic response " + std::string(w) + " p99 / libgomp-passive p99",
        ratio(ix, p, {"libgomp-passive", "periodic-region-response"}, "p99_ns"), 0.3);
  }
  for (const char* w : {"rtpar-spin", "rtpar-block", "rtpar-hybrid"}) {
    const Key p{w, "periodic-region"};
    add("periodic " + std::string(w) + " p99 / libgomp-active p99",
        ratio(ix, p, {"libgomp-active", "periodic-region"}, "p99_ns"), 0.5);
    // The target is about RT throttling, not about any long region: a stall is a region of at
    // least half the throttling gap (rt_throttle.hpp); host noise of a millisecond is not one.
    if (auto it = ix.find(p); it != ix.end() && it->second->contains("stalls")) {
      add("periodic " + std::string(w) + " RT-throttling stalls (regions >= " +
              std::to_string((*it->second)["stall_threshold_ns"].get<std::int64_t>() / 1'000'000) +
              " ms)",
          (*it->second)["stalls"].get<double>(), 0.0);
    }
  }
  return out;
}

// kProbeSpreadWarn is the probe spread (slowest / fastest host round trip over all program runs)
// above which the ratios are flagged: the host changed state during the run.
inline constexpr double kProbeSpreadWarn = 2.0;

// probe_drift summarizes the host probes of every program run (common/pingpong.hpp).
inline Json probe_drift(const Json& rows) {
  std::int64_t lo = -1, hi = -1;
  for (const Json& r : rows) {
    for (const Json& v : r["probe_rtt_ns"]) {
      const auto x = v.get<std::int64_t>();
      if (x <= 0) continue;
      lo = lo < 0 ? x : std::min(lo, x);
      hi = std::max(hi, x);
    }
  }
  const double spread = lo > 0 ? static_cast<double>(hi) / static_cast<double>(lo) : 0.0;
  return {{"rtt_min_ns", lo},
          {"rtt_max_ns", hi},
          {"spread", spread},
          {"unstable", spread > kProbeSpreadWarn}};
}

}  // namespace rtpar_bench
