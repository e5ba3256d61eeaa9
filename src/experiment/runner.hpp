// runner.hpp — `rtpar experiment run`: compute the units of a study (or of one shard or point)
// with worker threads, appending raw rows unit by unit, resumable.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "experiment/units.hpp"

namespace rtpar::experiment {

// Shard selects the units whose global index ≡ index (mod count).
struct Shard {
  std::uint64_t index = 0;
  std::uint64_t count = 1;
};

// RunConfig says which units to compute, where, and how.
struct RunConfig {
  std::filesystem::path out;         // the study's directory (DIR)
  int jobs = 1;                      // worker threads
  std::optional<Shard> shard;        // --shard K/N
  std::optional<std::size_t> point;  // --point I: every trial of one point
  bool resume = false;               // keep complete units already in this run's raw file
  bool progress = false;             // live progress line on stderr (a TTY)
};

// RunSummary counts what a run did.
struct RunSummary {
  std::uint64_t selected = 0;  // units this run is responsible for
  std::uint64_t computed = 0;  // computed now
  std::uint64_t resumed = 0;   // found complete in the raw file (--resume)
  double seconds = 0;          // wall time
  std::filesystem::path raw;   // the raw file written
};

// write_atomically writes text to p through a temporary file (named with the process id) and a
// rename: a reader, or another shard of the same study on a cluster, sees the old file or the new
// one, never half of one.
void write_atomically(const std::filesystem::path& p, const std::string& text);

// prepare_study_dir creates DIR and DIR/raw and records the study in DIR/experiment.toml (the
// manifest text) and DIR/study.txt (scale and seed), so merge and status need nothing else. A DIR
// that holds another study is refused (InputError), never mixed.
void prepare_study_dir(const Resolved& r, const std::filesystem::path& dir);

// load_study reads back the study recorded in DIR (InputError when DIR holds none).
Resolved load_study(const std::filesystem::path& dir);

// raw_file_name is the raw file of a run: raw/all.csv, raw/shard-K-of-N.csv or raw/point-I.csv.
std::filesystem::path raw_file_name(const RunConfig& config);

// run_units computes the selected units. The first error (bad generator parameters:
// InputError) stops the workers and is rethrown; rows already written stay valid.
RunSummary run_units(const Resolved& r, const RunConfig& config);

}  // namespace rtpar::experiment
