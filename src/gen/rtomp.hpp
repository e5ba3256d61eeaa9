// rtomp.hpp — the RT-OpenMP segment-length draw, exposed so that tests can check its distribution
// against Table I (RT-OpenMP §VI-A) without the size bias of the segments kept in tasks (the
// segment that crosses the critical path is truncated, so kept untruncated segments are shorter
// on average than the draws).
#pragma once

#include "core/rng.hpp"

namespace rtpar::gen {

// rtomp_segment_units draws one segment length in the paper's units: the shifted log-normal
// seg_min + LN(mean seg_avg − seg_min, σ = sigma) of decision RO2.
double rtomp_segment_units(Rng& rng, double seg_min, double seg_avg, double sigma);

}  // namespace rtpar::gen
