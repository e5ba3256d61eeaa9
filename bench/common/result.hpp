// result.hpp — one result row (runtime × construct) and how it is printed as JSON.
//
// Every program prints {"probe_rtt_ns": n, "results": [row, ...]} on stdout, rows in the schema of
// `rtpar bench forkjoin --json`, so the orchestrator only pools rows (and checks the probes). Extra
// keys carry what only some rows have (all_threads_share, overruns, ...). JSON is written by hand:
// peers build without the project's dependencies, and the values are numbers and short ASCII names.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/stats.hpp"

namespace rtpar_bench {

// Extra is an additional key of a row: a number, an integer, a flag or a name.
using ExtraValue = std::variant<double, std::int64_t, bool, std::string>;

// Result is one row: the summary of one runtime's samples for one construct.
struct Result {
  std::string runtime;    // e.g. "rtpar-spin", "libgomp-active", "tbb", "floor"
  std::string construct;  // "region", "parallel_for", "periodic-region", "spin-pingpong", ...
  int threads = 0;
  Summary summary;
  std::vector<std::pair<std::string, ExtraValue>> extras;

  // add records an extra key (kept in insertion order).
  Result& add(std::string key, ExtraValue value) {
    extras.emplace_back(std::move(key), std::move(value));
    return *this;
  }
};

// json_string quotes s for JSON (escapes quotes, backslashes and control characters).
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// json_value renders one extra value.
inline std::string json_value(const ExtraValue& v) {
  char buf[64];
  if (const double* d = std::get_if<double>(&v)) {
    std::snprintf(buf, sizeof(buf), "%.6g", *d);
    return buf;
  }
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) {
    std::snprintf(buf, sizeof(buf), "%" PRId64, *i);
    return buf;
  }
  if (const bool* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return json_string(std::get<std::string>(v));
}

// print_results writes {"probe_rtt_ns": probe, "results": [...]} with one row per line to out.
inline void print_results(std::FILE* out, const std::vector<Result>& rows,
                          std::int64_t probe_rtt_ns) {
  std::fprintf(out, "{\"probe_rtt_ns\": %" PRId64 ", \"results\": [", probe_rtt_ns);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Result& r = rows[i];
    const Summary& s = r.summary;
    std::fprintf(out,
                 "%s\n  {\"runtime\": %s, \"construct\": %s, \"threads\": %d, \"mean_ns\": %.1f, "
                 "\"p50_ns\": %" PRId64 ", \"p99_ns\": %" PRId64 ", \"p999_ns\": %" PRId64
                 ", \"max_ns\": %" PRId64 ", \"min_ns\": %" PRId64 ", \"samples\": %" PRId64,
                 i == 0 ? "" : ",", json_string(r.runtime).c_str(),
                 json_string(r.construct).c_str(), r.threads, s.mean_ns, s.p50_ns, s.p99_ns,
                 s.p999_ns, s.max_ns, s.min_ns, s.count);
    for (const auto& [key, value] : r.extras) {
      std::fprintf(out, ", %s: %s", json_string(key).c_str(), json_value(value).c_str());
    }
    std::fprintf(out, "}");
  }
  std::fprintf(out, "\n]}\n");
  std::fflush(out);
}

}  // namespace rtpar_bench
