// chain_measure.cpp — measure_chain (rtpar/report.hpp): a chain's measured data age and
// reaction time from its last task's outputs, shared by `run` (origins stamped through the
// channels) and `simulate` (origins replayed from the simulated jobs).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/table.hpp"
#include "model/chain_measure.hpp"
#include "rtpar/report.hpp"
#include "rtpar/time.hpp"

namespace rtpar {

ChainMeasure measure_chain(const std::string& name, const std::vector<ChainSample>& samples,
                           const ChainPlan* bounds) {
  ChainMeasure m;
  m.name = name;
  if (bounds != nullptr) {
    m.age_bound_ns = bounds->data_age_ns;
    m.reaction_bound_ns = bounds->reaction_ns;
  }
  std::vector<std::int64_t> ages;
  std::vector<std::int64_t> reactions;
  ages.reserve(samples.size());
  // Reaction: the first output (in finish order) that used a given origin. Origins of one
  // chain's outputs need not increase (a later output can use older data than an earlier one
  // after a preemption), so each origin counts once, however the outputs interleave.
  std::vector<std::int64_t> seen;
  for (const ChainSample& s : samples) {
    if (s.origin_ns < 0) continue;  // no stamped data reached the output yet
    ages.push_back(s.finish_ns - s.origin_ns);
    const auto at = std::lower_bound(seen.begin(), seen.end(), s.origin_ns);
    if (at == seen.end() || *at != s.origin_ns) {
      seen.insert(at, s.origin_ns);
      reactions.push_back(s.finish_ns - s.origin_ns);
    }
  }
  m.samples = static_cast<std::int64_t>(ages.size());
  m.origins = static_cast<std::int64_t>(reactions.size());
  std::sort(ages.begin(), ages.end());
  std::sort(reactions.begin(), reactions.end());
  if (!ages.empty()) {
    m.age_p50_ns = percentile(ages, 0.50);
    m.age_p99_ns = percentile(ages, 0.99);
    m.age_max_ns = ages.back();
    m.reaction_p99_ns = percentile(reactions, 0.99);
    m.reaction_max_ns = reactions.back();
  }
  return m;
}

}  // namespace rtpar

namespace rtpar::model {

namespace {

// text renders a duration for the table ("-" for none).
std::string text(std::optional<std::int64_t> ns) {
  return ns ? format_duration(Duration(*ns), 3) : std::string("-");
}

// json renders an optional duration (null for none).
nlohmann::ordered_json json(std::optional<std::int64_t> ns) {
  return ns ? nlohmann::ordered_json(*ns) : nlohmann::ordered_json(nullptr);
}

}  // namespace

nlohmann::ordered_json chain_measures_json(const std::vector<ChainMeasure>& chains) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const ChainMeasure& c : chains) {
    const bool any = c.samples > 0;
    out.push_back({{"name", c.name},
                   {"traced", c.traced},
                   {"samples", c.samples},
                   {"origins", c.origins},
                   {"age_p50_ns", any ? json(c.age_p50_ns) : json(std::nullopt)},
                   {"age_p99_ns", any ? json(c.age_p99_ns) : json(std::nullopt)},
                   {"age_max_ns", any ? json(c.age_max_ns) : json(std::nullopt)},
                   {"age_bound_ns", json(c.age_bound_ns)},
                   {"reaction_p99_ns", any ? json(c.reaction_p99_ns) : json(std::nullopt)},
                   {"reaction_max_ns", any ? json(c.reaction_max_ns) : json(std::nullopt)},
                   {"reaction_bound_ns", json(c.reaction_bound_ns)},
                   {"within_bounds", c.within_bounds()}});
  }
  return out;
}

std::string chain_measures_table(const std::vector<ChainMeasure>& chains, const char* source) {
  if (chains.empty()) return {};
  std::vector<std::vector<std::string>> rows = {{"chain", "outputs", "age p50", "age p99",
                                                 "age max", "age ≤", "reaction p99",
                                                 "reaction max", "reaction ≤"}};
  std::string named;
  for (const ChainMeasure& c : chains) {
    const auto m = [&](std::int64_t ns) {
      return c.samples > 0 ? format_duration(Duration(ns), 3) : std::string("-");
    };
    rows.push_back({c.name, c.traced ? fmt::format("{}", c.samples) : "not traced",
                    m(c.age_p50_ns), m(c.age_p99_ns), m(c.age_max_ns), text(c.age_bound_ns),
                    m(c.reaction_p99_ns), m(c.reaction_max_ns), text(c.reaction_bound_ns)});
    if (!c.within_bounds()) {
      named += fmt::format(
          "CHAIN BOUND EXCEEDED: chain '{}' {} data age {} (bound {}), reaction {} (bound {})\n",
          c.name, source, m(c.age_max_ns), text(c.age_bound_ns), m(c.reaction_max_ns),
          text(c.reaction_bound_ns));
    } else if (!c.traced) {
      named += fmt::format(
          "note: chain '{}' is not traced: one of its channels continues another chain from a "
          "different input (one origin per value)\n",
          c.name);
    }
  }
  return fmt::format("\nchains ({} end to end; origin = release of the chain's first job)\n",
                     source) +
         report::render_table(rows, {false, true, true, true, true, true, true, true, true}) +
         named;
}

int chains_exceeding(const std::vector<ChainMeasure>& chains) {
  return static_cast<int>(std::count_if(chains.begin(), chains.end(),
                                        [](const ChainMeasure& c) { return !c.within_bounds(); }));
}

}  // namespace rtpar::model
