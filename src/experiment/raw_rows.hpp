// raw_rows.hpp — the raw rows a run writes (DIR/raw/*.csv): one line per (unit, series), flushed
// unit by unit, so a killed shard loses at most the unit it was computing.
//
// Format (docs/experiments.md "Outputs"): a first line `# rtpar-experiment v1 name=... scale=...
// seed=... manifest=HEX`, which merge checks is the same in every file; then the CSV header and
// the rows. Shards never aggregate: merge does, once every unit is in.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "experiment/trial.hpp"

namespace rtpar::experiment {

// searches_cores says whether a series of study r runs the required-cores search (its raw rows
// then end in a `required_cores` cell, and the merged CSV in mean_required_cores,required_over).
bool searches_cores(const Resolved& r);

// raw_signature is the first line of every raw file of a resolved study (no newline).
std::string raw_signature(const Resolved& r);

// raw_header is the signature line and the CSV header line, each ending in a newline.
std::string raw_header(const Resolved& r);

// raw_lines renders one unit's rows, one per series, each ending in a newline.
std::string raw_lines(const Resolved& r, const UnitResult& result);

// RawRow is one parsed raw row (timing left out: no comparison may depend on it).
struct RawRow {
  std::uint64_t unit = 0;
  std::size_t series = 0;  // index into the manifest's series
  Verdict verdict = Verdict::rejected;
  std::int64_t tasks = 0;
  double total_util = 0;
  std::int64_t redraws = 0;
  // Simulation manifests only:
  bool plan_admitted = false;
  bool simulated = false;
  double miss_ratio = 0;                    // when simulated
  std::optional<double> max_rel_response;   // when simulated and some job completed
  std::optional<double> mean_rel_response;  // the same
  // searches_cores studies: the cell `required_cores` — empty (not searched), the number, or
  // `>M` (more than M cores needed).
  bool required_searched = false;
  // admitted_by studies: the unit's draws and whether its last one was admitted.
  std::int64_t draws = 1;
  bool draw_admitted = true;
  std::optional<int> required_cores;
  int required_max = 0;
  // Bench studies: the row's metric cells (empty cell: nullopt), in [bench] metrics order.
  std::vector<std::optional<double>> metrics;
  std::string line;  // the row as written, for rewriting a resumed file
};

// read_raw reads one raw file of study r. Keeps only units whose rows are all present (a run
// killed mid-unit leaves a partial one, which a resume recomputes). Throws InputError naming the
// file for another study's file or a malformed row.
std::vector<RawRow> read_raw(const std::filesystem::path& file, const Resolved& r);

}  // namespace rtpar::experiment
