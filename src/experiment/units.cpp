// units.cpp — points, units and counter-based unit seeds (docs/experiments.md "Determinism").
#include "experiment/units.hpp"

#include <charconv>
#include <string>

#include "core/rng.hpp"

namespace rtpar::experiment {

Resolved resolve(Manifest manifest, std::string_view scale, std::optional<std::uint64_t> seed) {
  const auto it = manifest.scales.find(scale);
  if (it == manifest.scales.end()) {
    std::string list;
    for (const auto& [name, s] : manifest.scales) list += (list.empty() ? "" : ", ") + name;
    throw InputError(
        {manifest.source, 0, 0}, "scale",
        "no scale \"" + std::string(scale) + "\" in this manifest (it has: " + list + ")");
  }
  Resolved r;
  r.scale = std::string(scale);
  r.seed = seed.value_or(manifest.seed);
  r.trials = it->second.trials;
  const std::vector<std::string>& xs = it->second.x ? *it->second.x : manifest.x_values;
  for (std::size_t p = 0; p < manifest.panels.size(); ++p) {
    for (const std::string& x : xs) r.points.push_back(Point{p, x});
  }
  if (const std::optional<std::int64_t> d = it->second.duration_ns) {
    // A runtime scale's `duration` replaces every series' own: the same study, shorter runs.
    for (Series& series : manifest.series) {
      if (series.run) series.run->duration_ns = *d;
    }
  }
  r.manifest = std::move(manifest);
  return r;
}

std::uint64_t unit_seed(const Resolved& r, const Unit& u) {
  const Point& p = r.points[u.point];
  const std::string key = r.manifest.name + "|" + r.manifest.panels[p.panel].name + "|" + p.x +
                          "|" + std::to_string(u.trial);
  std::uint64_t state = r.seed ^ fnv1a64(key);
  return splitmix64(state);
}

const std::string& unit_family(const Resolved& r, const Unit& u) {
  const Panel& panel = r.panel_of(u.point);
  return panel.family.empty() ? r.manifest.family : panel.family;
}

gen::Params unit_params(const Resolved& r, const Unit& u) {
  gen::Params params = r.manifest.params;
  const Panel& panel = r.panel_of(u.point);
  for (const auto& [key, value] : panel.params) params[key] = value;
  std::string x = r.points[u.point].x;
  if (!r.manifest.x_percent_of.empty()) {
    // x % of an integer parameter, exactly: x·v/100 written with two decimals.
    const auto it = params.find(r.manifest.x_percent_of);
    std::int64_t v = 0;
    const std::string text = it == params.end() ? "" : it->second.value;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (it == params.end() || ec != std::errc() || end != text.data() + text.size() || v < 0 ||
        v > 1'000'000) {
      throw InputError({r.manifest.source, 0, 0}, "sweep.percent_of",
                       "percent_of names \"" + r.manifest.x_percent_of +
                           "\", which must be an integer generator parameter (0..10^6) of every "
                           "panel");
    }
    const std::int64_t hundredths = std::stoll(x) * v;  // x ≤ 10^5, v ≤ 10^6: no overflow
    x = std::to_string(hundredths / 100) + "." + (hundredths % 100 < 10 ? "0" : "") +
        std::to_string(hundredths % 100);
  }
  params[r.manifest.x_name] = gen::Param{x, {r.manifest.source, 0, 0}};
  return params;
}

}  // namespace rtpar::experiment
