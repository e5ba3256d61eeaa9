// overhead_draw.hpp — the value each injected overhead instance takes: one statistic of the
// overhead profile for every instance, or a draw per instance from the profile's distribution
// (SimOptions::overhead_statistic; docs/internals/simulation.md, "Overheads").
#pragma once

#include <array>
#include <cstdint>

#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/simulate.hpp"

namespace rtpar::sim {

// OverheadQuantiles is one overhead instance (a release, a fork/join, a barrier) at the profile's
// stated points: the charge the planners' rule gives when every profile entry is read at p50,
// p99, p99.9 and max. Non-decreasing (quantiles_of enforces it).
struct OverheadQuantiles {
  std::int64_t p50 = 0, p99 = 0, p999 = 0, max = 0;
};

// kProfileColumns lists the four stated points, in OverheadQuantiles order.
inline constexpr std::array<OverheadStatistic, 4> kProfileColumns = {
    OverheadStatistic::p50, OverheadStatistic::p99, OverheadStatistic::p999,
    OverheadStatistic::max};

// quantiles_of is an instance from its charge at the four columns, each raised to the one before
// it: the rule's extrapolation is not monotone in the entries, a distribution's quantiles are.
OverheadQuantiles quantiles_of(const std::array<std::int64_t, 4>& by_column);

// value_at is the instance's value at a fixed statistic (not `sampled`).
std::int64_t value_at(const OverheadQuantiles& q, OverheadStatistic statistic);

// kDrawScale is the resolution of a draw: u = k / kDrawScale for k uniform in [0, kDrawScale),
// exact in integers (the quantile points 0.5, 0.99, 0.999 are multiples of 1/kDrawScale).
inline constexpr std::int64_t kDrawScale = 1'000'000'000;

// sample_at is the inverse-CDF interpolation of `q` at u = k / kDrawScale: p50 for u < 0.5 (the
// profile states nothing below its median), then linear between (0.5, p50), (0.99, p99),
// (0.999, p99.9) and (1, max); floor of the exact value, always in [p50, max].
std::int64_t sample_at(const OverheadQuantiles& q, std::int64_t k);

// draw_index is k for instance `instance` of job `job` of task `task` (its TaskSet index) under
// `seed`: xoshiro256** (src/core/rng.hpp) seeded with derive_seed(derive_seed(derive_seed(seed,
// task), job), instance), its first `below(kDrawScale)`. A pure function of the four numbers.
std::int64_t draw_index(std::uint64_t seed, std::uint64_t task, std::uint64_t job,
                        std::uint64_t instance);

}  // namespace rtpar::sim
