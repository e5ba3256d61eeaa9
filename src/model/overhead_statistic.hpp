// overhead_statistic.hpp — an overhead profile read at one statistic of its entries' distributions
// (p50, p99, p99.9, max): what the planners charge under --charged-statistic or a manifest's
// charged_statistic (FJOS §VI charges the worst case it measured, where rtpar charges each entry's
// p99.9 by default: decision F14 of the experiments), and the columns the simulator injects.
// Reading lives beside the profile (overhead_profile.cpp) so that planning does not include the
// simulator; charging stays in analysis, and the simulator only injects.
#pragma once

#include <string>

#include "rtpar/error.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/sim_kinds.hpp"

namespace rtpar::model {

// profile_at is `profile` with every entry's p999_ns replaced by its value at `column` (p50, p99,
// p999 or max), so the planners' charge functions, which read p999_ns, compute the charge at that
// statistic with their own rule (entry choice, extrapolation above the largest team). An entry
// without p50_ns or p99_ns (stored as 0) takes its next higher stated quantile. Throws InputError
// naming the profile when a max_ns above kMaxForkJoinCostNs would be charged (`column` max).
OverheadProfile profile_at(const OverheadProfile& profile, OverheadStatistic column);

// charged_at is `profile` read at `statistic` ("p50", "p99", "p99.9" or "max") by profile_at, so
// every planner's charge rule (entry choice, extrapolation above the largest team) applies to that
// column. "p99.9" returns the profile unchanged. Throws InputError at `where`/`field` for another
// spelling (also "sampled": a planner charges one number) or a max above 1 s.
OverheadProfile charged_at(const OverheadProfile& profile, const std::string& statistic,
                           const SourceLocation& where, const std::string& field);

}  // namespace rtpar::model
