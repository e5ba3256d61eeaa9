// rtpar/tools/calibrate.hpp — measuring this machine's fork/join cost on a real team, the input
// of an overhead profile (rtpar/tools/overhead.hpp; `rtpar calibrate`).
#pragma once

#include "rtpar/team.hpp"
#include "rtpar/tools/overhead.hpp"

namespace rtpar {

// measure_fork_join_cost times `iterations` empty regions on a team built from config (after a
// warm-up). With parked = true the team is parked before every region, so each fork has to wake
// sleeping workers — the cost a job's first region pays. Runs on the calling thread as master.
ForkJoinCost measure_fork_join_cost(const TeamConfig& config, int iterations, bool parked);

}  // namespace rtpar
