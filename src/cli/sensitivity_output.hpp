// sensitivity_output.hpp — how `rtpar check --sensitivity` shows analyse_sensitivity's answer: a
// table after the plan, and a "sensitivity" object in the --json document.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "rtpar/tools/planners.hpp"

namespace rtpar::cli {

// factor_text renders a factor in millionths, rounded down (so the text never claims more margin
// than was admitted): 3 decimals from ×1 up, 4 significant digits below (at most 6 decimals).
std::string factor_text(std::int64_t factor);

// sensitivity_table renders `s` for people: one row per task and one for all tasks together
// (factor, C at it, the factor refused above it, D − R and R/D at ×1; for a planner that is not
// monotone, the smallest factor the grid check refused below it), then what the columns mean and
// the planner's monotonicity.
std::string sensitivity_table(const Sensitivity& s);

// sensitivity_json is `s` as the "sensitivity" object of `rtpar check --json` (docs/cli.md):
// factors as exact integers in millionths (*_ppm) and the admitted one also as a number.
nlohmann::ordered_json sensitivity_json(const Sensitivity& s);

}  // namespace rtpar::cli
