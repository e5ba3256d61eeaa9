// test_chain_measure.cpp — measure_chain (rtpar/report.hpp) on hand-worked outputs: data age is
// finish − origin of every output, reaction counts each origin once (its first output, however
// the outputs interleave), outputs without stamped data are skipped, and within_bounds compares
// the maxima with the plan's bounds (docs/analysis.md, "Cause-effect chains").
#include <doctest/doctest.h>

#include <cstdint>
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

TEST_CASE("measure_chain: a pipeline worked by hand — repeated, skipped and late origins") {
  // The first task is released every 10 at 0, 10, 20, 30, 40; (finish, origin) of the last
  // task's outputs in finish order:
  const std::vector<ChainSample> samples = {
      {5, -1},   // no stamped data yet: skipped
      {15, 0},   // age 15; origin 0 first seen: reaction 15
      {25, 0},   // the same origin read twice: age 25, no second reaction
      {35, 20},  // origin 10 never reaches the end (overwritten): age 15, reaction 15
      {45, 40},  // age 5, reaction 5
      {55, 30},  // an older origin after a newer one, first seen: age 25, reaction 25
      {65, 20},  // origin 20 again: age 45, no reaction
  };
  ChainPlan plan;
  plan.name = "p";
  plan.data_age_ns = 45;
  plan.reaction_ns = 25;
  const ChainMeasure m = rtpar::measure_chain("p", samples, &plan);
  // Ages {15, 25, 15, 5, 25, 45} sorted {5, 15, 15, 25, 25, 45}: nearest rank ⌈0.5·6⌉ = 3 → 15,
  // ⌈0.99·6⌉ = 6 → 45. Reactions {15, 15, 5, 25}: one per origin 0, 20, 40, 30.
  CHECK(m.samples == 6);
  CHECK(m.origins == 4);
  CHECK(m.age_p50_ns == 15);
  CHECK(m.age_p99_ns == 45);
  CHECK(m.age_max_ns == 45);
  CHECK(m.reaction_p99_ns == 25);
  CHECK(m.reaction_max_ns == 25);
  CHECK(m.within_bounds());  // both maxima equal their bounds
  // A reaction counted for every output, not once per origin, would reach 45 (origin 20's second
  // output): one nanosecond of reaction bound less must show the 25, not more.
  plan.reaction_ns = 24;
  CHECK_FALSE(rtpar::measure_chain("p", samples, &plan).within_bounds());
}

TEST_CASE("measure_chain: p99 is the nearest rank, not the maximum") {
  // 150 outputs, each its own origin: ages 1..148 and two outliers 5000 and 9000. Nearest rank:
  // p50 ⌈0.5·150⌉ = 75 → 75; p99 ⌈0.99·150⌉ = ⌈148.5⌉ = 149 → 5000; max 9000.
  std::vector<ChainSample> samples;
  for (std::int64_t i = 0; i < 150; ++i) {
    const std::int64_t origin = 100'000 * i;
    const std::int64_t age = i == 40 ? 9000 : i == 90 ? 5000 : i < 40 ? i + 1 : i < 90 ? i : i - 1;
    samples.push_back({origin + age, origin});
  }
  const ChainMeasure m = rtpar::measure_chain("c", samples, nullptr);
  CHECK(m.samples == 150);
  CHECK(m.origins == 150);
  CHECK(m.age_p50_ns == 75);
  CHECK(m.age_p99_ns == 5000);
  CHECK(m.age_max_ns == 9000);
  CHECK(m.reaction_p99_ns == 5000);
  CHECK(m.reaction_max_ns == 9000);
}

TEST_CASE("measure_chain: no outputs at all — zero samples, within any bound, null in JSON") {
  ChainPlan plan;
  plan.name = "c";
  plan.data_age_ns = 1;
  plan.reaction_ns = 1;
  const ChainMeasure m = rtpar::measure_chain("c", {}, &plan);
  CHECK(m.samples == 0);
  CHECK(m.origins == 0);
  CHECK(m.age_max_ns == 0);
  CHECK(m.age_bound_ns == 1);
  CHECK(m.within_bounds());
  const auto json = rtpar::model::chain_measures_json({m});
  CHECK(json.at(0).at("samples") == 0);
  CHECK(json.at(0).at("age_p50_ns").is_null());
  CHECK(json.at(0).at("age_bound_ns") == 1);
}
