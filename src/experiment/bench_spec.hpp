// bench_spec.hpp — the driver settings of a `class = "bench"` manifest (docs/experiments.md
// "Bench manifests"): a unit runs one rtpar-bench driver (`rtpar bench DRIVER ... --json`) once,
// every runtime of the comparison in that one run, and each series keeps the one JSON record its
// `match` selects; the record's `metrics` fields become the row's cells.
//
// Why a driver run per unit rather than the bench's own repetitions only: a trial is then one
// complete, paired comparison (the peers measured minutes apart on the same machine), and the
// study's trials show how much whole runs differ, which one run's percentiles cannot.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "load/toml_fields.hpp"

namespace rtpar::experiment {

// BenchSpec is the [bench] table.
struct BenchSpec {
  std::string driver;             // rtpar-bench subcommand: forkjoin, latency, channels, steal, omp
  std::vector<std::string> args;  // arguments of every run (panel and scale args follow them)
  // x_option: each point's x is passed as `x_option X` (e.g. "--threads"); empty: x only labels
  // the point and the panel's args say everything.
  std::string x_option;
  std::vector<std::string> metrics;  // the records' numeric fields kept, in column order
  // records: the top-level JSON array holding the driver's records ("results"; `rtpar bench
  // channels` writes "fig3" and "fig4").
  std::string records = "results";
  int timeout_s = 900;   // a driver run still going after this is killed (exit 70)
  SourceLocation where;  // the [bench] table, for errors about its arguments
};

// BenchMatch is a bench series' record selector: field name → value as text (a record matches
// when every field is present and equal; numbers compare by value, so 2 matches 2.0).
using BenchMatch = std::map<std::string, std::string, std::less<>>;

// kBenchDrivers are the drivers a bench manifest may name (rtpar-bench's measuring subcommands).
inline constexpr std::string_view kBenchDrivers[] = {"forkjoin", "latency", "channels", "steal",
                                                     "omp",      "wcet"};

// read_bench_spec reads [bench]; errors name file, line, column and field.
BenchSpec read_bench_spec(const model::TableReader& t);

// read_args reads an optional array of strings (a driver's arguments) at key.
std::vector<std::string> read_args(const model::TableReader& t, std::string_view key);

// read_bench_match reads a bench series' `match` inline table (required, non-empty).
BenchMatch read_bench_match(const model::TableReader& t);

// record_matches says whether one JSON record of a driver's `results` matches m.
bool record_matches(const nlohmann::json& record, const BenchMatch& m);

// describe is one line of a bench study's driver settings (`rtpar experiment show`).
std::string describe(const BenchSpec& b);

}  // namespace rtpar::experiment
