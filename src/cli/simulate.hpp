// simulate.hpp — `rtpar simulate`: plan a task set, then run the plan in the discrete-event
// simulator (rtpar/tools/simulate.hpp) instead of on real threads; any machine size, no privileges.
#pragma once

#include "cli/commands.hpp"

namespace rtpar::cli {

// add_simulate registers `rtpar simulate FILE [--planner NAME|all] [--target SPEC]
// [--overhead FILE] [--overhead-statistic S] [--seed N] [--context-switch D] [--horizon D]
// [--required-cores [--miss-threshold R] [--max-cores M]] [--json]`. Exit 0 when no simulated job
// misses its deadline (with --required-cores: when a core count was found), 1 when one does (none
// was), 2 for bad input.
Command add_simulate(CLI::App& app);

}  // namespace rtpar::cli
