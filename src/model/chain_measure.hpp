// chain_measure.hpp — rendering measured chain latencies (rtpar/report.hpp's ChainMeasure) the
// same way in `run` (table, --json, report.json) and `simulate` (table, --json).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rtpar/report.hpp"

namespace rtpar::model {

// chain_measures_json lists each chain's measurement (schema: docs/cli.md, "chains").
nlohmann::ordered_json chain_measures_json(const std::vector<ChainMeasure>& chains);

// chain_measures_table is the text section for chains (empty without chains): age p50/p99/max
// and reaction p99/max beside the bounds, then one "CHAIN BOUND EXCEEDED" line per chain whose
// measurement exceeds a bound (a broken promise of the admission test, like a deadline miss).
// `source` names where the numbers come from ("measured", "simulated").
std::string chain_measures_table(const std::vector<ChainMeasure>& chains, const char* source);

// chains_exceeding counts the chains whose measurement exceeds a bound.
int chains_exceeding(const std::vector<ChainMeasure>& chains);

}  // namespace rtpar::model
