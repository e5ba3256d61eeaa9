// samples_csv.hpp — raw per-sample latencies on disk: how programs hand their samples to the
// orchestrator (which pools rounds), and what tools/plot_forkjoin.py reads.
//
// One file per row, DIR/<runtime>.<construct>.csv: a header line "ns" and one sample per line in
// the order measured (so a plot can also show samples over time, e.g. a throttling stall).
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace rtpar_bench {

// write_samples_csv writes samples to DIR/<runtime>.<construct>.csv (no-op when dir is empty).
// Returns false and prints why on stderr if the file cannot be written.
inline bool write_samples_csv(const std::string& dir, const std::string& runtime,
                              const std::string& construct,
                              const std::vector<std::int64_t>& samples) {
  if (dir.empty()) return true;
  const std::string path = dir + "/" + runtime + "." + construct + ".csv";
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) {
    std::perror(path.c_str());
    return false;
  }
  std::fputs("ns\n", f);
  for (std::int64_t v : samples) std::fprintf(f, "%" PRId64 "\n", v);
  const bool ok = std::fclose(f) == 0;
  if (!ok) std::perror(path.c_str());
  return ok;
}

// read_samples_csv appends the samples of a file written by write_samples_csv to out; returns
// false if the file cannot be opened.
inline bool read_samples_csv(const std::string& path, std::vector<std::int64_t>& out) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return false;
  char line[64];
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    char* end = nullptr;
    const long long v = std::strtoll(line, &end, 10);
    if (end != line) out.push_back(v);  // skips the "ns" header
  }
  std::fclose(f);
  return true;
}

}  // namespace rtpar_bench
