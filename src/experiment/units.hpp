// units.hpp — the units of work of an experiment: points (panel, x) and trials, numbered so that
// any split (shards, points, threads) computes exactly the same rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiment/manifest.hpp"

namespace rtpar::experiment {

// Point is one (panel, x) of the sweep; its index is its position in `points` order: panels in
// manifest order, x in sweep order within each panel.
struct Point {
  std::size_t panel = 0;
  std::string x;
};

// Unit is one trial of one point: one generated task set, judged by every series. Its global
// index is point × trials + trial, so `--shard K/N` (index ≡ K mod N) interleaves cheap and
// expensive points.
struct Unit {
  std::uint64_t index = 0;
  std::size_t point = 0;
  std::int64_t trial = 0;
};

// Resolved is a manifest at one scale and seed: the exact list of units a run computes.
struct Resolved {
  Manifest manifest;
  std::string scale;
  std::uint64_t seed = 1;
  std::int64_t trials = 0;
  std::vector<Point> points;

  // units is the number of units of the whole study.
  [[nodiscard]] std::uint64_t units() const {
    return static_cast<std::uint64_t>(points.size()) * static_cast<std::uint64_t>(trials);
  }
  // unit is the unit with global index i (< units()).
  [[nodiscard]] Unit unit(std::uint64_t i) const {
    const auto t = static_cast<std::uint64_t>(trials);
    return Unit{i, static_cast<std::size_t>(i / t), static_cast<std::int64_t>(i % t)};
  }
  // panel_of is the panel of point p.
  [[nodiscard]] const Panel& panel_of(std::size_t p) const {
    return manifest.panels[points[p].panel];
  }
};

// resolve fixes the scale (an error names the scales the manifest has) and the seed (the
// manifest's when none is given).
Resolved resolve(Manifest manifest, std::string_view scale, std::optional<std::uint64_t> seed);

// unit_seed is the seed of a unit's task set: splitmix64(seed ⊕ fnv1a64("NAME|panel|x|trial")).
// Counter-based: it depends only on the unit's identity, never on which process computes it or
// in which order, so every split of a study gives identical rows.
std::uint64_t unit_seed(const Resolved& r, const Unit& u);

// unit_family is the generator family of a unit (the panel's, else the manifest's).
const std::string& unit_family(const Resolved& r, const Unit& u);

// unit_params are a unit's generator parameters: the manifest's, overridden by its panel's, with
// the sweep parameter set to the point's x.
gen::Params unit_params(const Resolved& r, const Unit& u);

}  // namespace rtpar::experiment
