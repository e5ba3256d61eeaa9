// test_chain_measure.cpp — measure_chain (rtpar/report.hpp) on hand-worked outputs: data age is
// finish − origin of every output, reaction counts each origin once (its first output, however
// the outputs interleave), outputs without stamped data are skipped, and within_bounds compares
// the maxima with the plan's bounds (docs/analysis.md, "Cause-effect chains").
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/chain_measure.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/report.hpp"

using rtpar::ChainMeasure;
using rtpar::ChainPlan;
using rtpar::ChainSample;

TEST_CASE("measure_chain: ages, first outputs per origin and nearest-rank percentiles") {
  // (finish, origin): the 4th output has no data yet; the 5th uses an older origin (12) than
  // the 3rd (15) — a later output on older data, after a preemption.
  const std::vector<ChainSample> samples = {{10, 0}, {20, 0}, {30, 15}, {35, -1}, {40, 12}};
  const ChainMeasure m = rtpar::measure_chain("c", samples, nullptr);
  CHECK(m.name == "c");
  CHECK(m.samples == 4);      // ages 10, 20, 15, 28
  CHECK(m.origins == 3);      // reactions 10 (origin 0), 15 (origin 15), 28 (origin 12)
  CHECK(m.age_p50_ns == 15);  // nearest rank ⌈0.5·4⌉ = 2 of {10, 15, 20, 28}
  CHECK(m.age_p99_ns == 28);
  CHECK(m.age_max_ns == 28);
  CHECK(m.reaction_p99_ns == 28);
  CHECK(m.reaction_max_ns == 28);
  CHECK_FALSE(m.age_bound_ns.has_value());
  CHECK(m.within_bounds());  // no bounds: nothing to exceed
}

TEST_CASE("measure_chain: bounds are copied and compared with the maxima, boundary included") {
  const std::vector<ChainSample> samples = {{10, 0}, {40, 12}};  // ages 10, 28
  ChainPlan plan;
  plan.name = "c";
  plan.data_age_ns = 28;  // equal to the largest age: within
  plan.reaction_ns = 28;
  ChainMeasure m = rtpar::measure_chain("c", samples, &plan);
  CHECK(m.age_bound_ns == 28);
  CHECK(m.within_bounds());
  CHECK(rtpar::model::chains_exceeding({m}) == 0);
  plan.data_age_ns = 27;  // one nanosecond short
  m = rtpar::measure_chain("c", samples, &plan);
  CHECK_FALSE(m.within_bounds());
  CHECK(rtpar::model::chains_exceeding({m}) == 1);
  const auto table = rtpar::model::chain_measures_table({m}, "measured");
  CHECK(table.find("CHAIN BOUND EXCEEDED: chain 'c' measured") != std::string::npos);
  const auto json = rtpar::model::chain_measures_json({m});
  CHECK(json.at(0).at("age_max_ns") == 28);
  CHECK(json.at(0).at("within_bounds") == false);
}

TEST_CASE("measure_chain: no stamped output gives null measures, never zeros that pass") {
  const ChainMeasure m = rtpar::measure_chain("c", {{5, -1}, {9, -1}}, nullptr);
  CHECK(m.samples == 0);
  CHECK(m.origins == 0);
  const auto json = rtpar::model::chain_measures_json({m});
  CHECK(json.at(0).at("age_max_ns").is_null());
  CHECK(json.at(0).at("reaction_max_ns").is_null());
}
