// utilizations.hpp — drawing n task utilizations with a fixed sum: UUniFast-discard and
// RandFixedSum, both written from their papers' algorithm descriptions.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/rng.hpp"

namespace rtpar::gen {

// uunifast is UUniFast (Bini and Buttazzo, "Measuring the performance of schedulability tests",
// Real-Time Systems 30(1), 2005): n values uniform over the simplex of sum `total`. The running sum
// is multiplied by U^(1/(n−i)) and the difference becomes u_i; the last value is the rest.
std::vector<double> uunifast(Rng& rng, int n, double total);

// uunifast_discard repeats uunifast until no value exceeds `max` (Davis and Burns, RTSS 2009, for
// multiprocessors where total > 1), adding the rejected draws to *redraws. nullopt after
// `max_tries` rejections in a row (total/n close to max makes acceptance vanishingly rare).
std::optional<std::vector<double>> uunifast_discard(Rng& rng, int n, double total, double max,
                                                    std::int64_t max_tries, std::int64_t* redraws);

// randfixedsum draws n values in [lo, hi] with sum `total` uniformly over that region of the
// simplex: Stafford's algorithm (R. Stafford, "Random vectors with fixed sum", 2006), as used by
// Emberson, Stafford and Davis ("Techniques for the synthesis of multiprocessor tasksets", WATERS
// 2010). Needs n·lo ≤ total ≤ n·hi and lo < hi; the values are returned in random order.
std::vector<double> randfixedsum(Rng& rng, int n, double total, double lo, double hi);

}  // namespace rtpar::gen
