// charged_profile.hpp — an overhead profile read at the statistic a planner charges (decision F14
// of the experiments brief: FJOS integrates worst-case overheads, fjos.md §VI, where rtpar's
// planners charge each entry's p99.9 by default).
#pragma once

#include <string>

#include "rtpar/error.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar::sim {

// charged_at is `profile` read at `statistic` ("p50", "p99", "p99.9" or "max") by profile_at, so
// every planner's charge rule (entry choice, extrapolation above the largest team) applies to that
// column. "p99.9" returns the profile unchanged. Throws InputError at `where`/`field` for another
// spelling (also "sampled": a planner charges one number) or a max above 1 s.
OverheadProfile charged_at(const OverheadProfile& profile, const std::string& statistic,
                           const SourceLocation& where, const std::string& field);

}  // namespace rtpar::sim
