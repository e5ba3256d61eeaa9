// rtpar/tools/overhead.hpp — measured fork/join costs, for analyses that charge them at every fork
// (fjos.md §VI: "the fork/join costs can be added to the computation of aggregate strands").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rtpar/wait_policy.hpp"

namespace rtpar {

// ForkJoinCost is the measured cost of one empty fork/join region on a team of `threads`.
struct ForkJoinCost {
  int threads = 1;
  WaitKind wait = WaitKind::hybrid;
  bool parked = false;  // measured from parked (sleeping) workers, as at a job's first fork
  std::int64_t samples = 0;
  double mean_ns = 0;
  std::int64_t p50_ns = 0;
  std::int64_t p99_ns = 0;
  std::int64_t p999_ns = 0;
  std::int64_t max_ns = 0;
};

// OverheadProfile is a set of measured costs (one per team size and policy), as written by
// `rtpar calibrate` and read by analyses.
struct OverheadProfile {
  std::string machine;  // free text: where it was measured
  std::vector<ForkJoinCost> fork_join;

  // fork_join_bound is the cost an analysis should charge per fork on a team of `threads` with
  // `wait`: the largest measured p99.9 over the entries for that size and policy (parked or not),
  // or of the nearest larger team size measured; -1 when nothing applies.
  [[nodiscard]] std::int64_t fork_join_bound(int threads, WaitKind wait) const;
};

// overhead_profile_json renders a profile as JSON (the file `rtpar calibrate --out` writes).
std::string overhead_profile_json(const OverheadProfile& profile);

// load_overhead_profile reads such a file. Throws InputError naming the file and field.
OverheadProfile load_overhead_profile(const std::string& path);

}  // namespace rtpar
