// test_experiment.cpp — manifests (strict), units and seeds, Wilson intervals and breakdown.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/rng.hpp"
#include "experiment/manifest.hpp"
#include "experiment/merge.hpp"
#include "experiment/trial.hpp"
#include "experiment/units.hpp"
#include "rtpar/tools/planners.hpp"

using namespace rtpar;
using namespace rtpar::experiment;

namespace {

// kMinimal is the smallest valid manifest; tests append or replace lines in it.
const std::string kMinimal = R"([experiment]
name = "t"
[generator]
family = "fjos"
cores = 8
[sweep]
x = "total_util_pct"
values = "10:30:10"
[[series]]
name = "A"
planner = "fork-join-rta"
[[series]]
name = "B"
bound = "3.73"
[scale.paper]
trials = 4
[scale.smoke]
trials = 2
values = [10]
)";

// error_of parses text and returns the InputError's "field: message" (empty when it parses).
std::string error_of(const std::string& text) {
  try {
    (void)parse_manifest(text, "m.toml");
  } catch (const InputError& e) {
    return e.field() + ": " + e.message() + " @" + std::to_string(e.where().line);
  }
  return "";
}

}  // namespace

TEST_CASE("experiment: x_range expands START:STOP:STEP inclusively and refuses the rest") {
  CHECK(*x_range("5:20:5", 8) == std::vector<std::string>{"5", "10", "15", "20"});
  CHECK(*x_range("7:7:1", 8) == std::vector<std::string>{"7"});
  CHECK(*x_range("0:10:4", 8) == std::vector<std::string>{"0", "4", "8"});  // STOP off the grid
  CHECK_FALSE(x_range("5:1:1", 8));
  CHECK_FALSE(x_range("1:5:0", 8));
  CHECK_FALSE(x_range("-1:5:1", 8));
  CHECK_FALSE(x_range("1:5", 8));
  CHECK_FALSE(x_range("1:5:1:", 8));
  CHECK_FALSE(x_range("a:5:1", 8));
  // STOP = cores: a --threads sweep up to the machine's cores (issue 36 item 9).
  CHECK(*x_range("1:cores:1", 4) == std::vector<std::string>{"1", "2", "3", "4"});
  CHECK(*x_range("2:cores:1", 2) == std::vector<std::string>{"2"});
  CHECK(*x_range("1:cores:2", 6) == std::vector<std::string>{"1", "3", "5"});
  CHECK_FALSE(x_range("3:cores:1", 2));  // no value on a machine of 2
  CHECK_FALSE(x_range("cores:8:1", 8));  // only STOP may be `cores`
  CHECK_FALSE(x_range("1:core:1", 8));
  CHECK_FALSE(x_range("1:coresx:1", 8));
  CHECK(machine_cores() >= 1);
  // A manifest's sweep resolves `cores` on the machine that reads it.
  const std::vector<std::string> here = *x_range("1:cores:1", machine_cores());
  CHECK(here.size() == static_cast<std::size_t>(machine_cores()));
}

TEST_CASE("experiment: a minimal manifest reads with defaults") {
  const Manifest m = parse_manifest(kMinimal, "m.toml");
  CHECK(m.name == "t");
  CHECK(m.klass == ManifestClass::analysis);
  CHECK(m.seed == 1);
  REQUIRE(m.panels.size() == 1);
  CHECK(m.panels[0].name == "default");
  CHECK(m.x_values == std::vector<std::string>{"10", "20", "30"});
  REQUIRE(m.series.size() == 2);
  CHECK(m.series[1].kind == SeriesKind::bound);
  CHECK(m.params.at("cores").value == "8");
  const Resolved r = resolve(m, "paper", std::nullopt);
  CHECK(r.units() == 12);
  CHECK(r.unit(5).point == 1);
  CHECK(r.unit(5).trial == 1);
  const Resolved smoke = resolve(m, "smoke", 9);
  CHECK(smoke.units() == 2);
  CHECK(smoke.seed == 9);
  CHECK_THROWS_AS((void)resolve(m, "quick", std::nullopt), InputError);
}

TEST_CASE("experiment: manifests are strict and errors name the field and line") {
  CHECK(error_of(kMinimal).empty());
  std::string t = kMinimal;
  t.replace(t.find("trials = 4"), 10, "trails = 4");
  CHECK(error_of(t).find("scale.paper.trails") != std::string::npos);
  CHECK(error_of(t).find("@16") != std::string::npos);
  t = kMinimal;
  t.replace(t.find("planner = \"fork-join-rta\""), 25, "planner = \"nope\"");
  CHECK(error_of(t).find("series[0].planner") != std::string::npos);
  t = kMinimal;
  t.replace(t.find("bound = \"3.73\""), 14, "bound = \"0.5\"");
  CHECK(error_of(t).find("series[1].bound") != std::string::npos);
  t = kMinimal;
  t.replace(t.find("[scale.smoke]"), 13, "[scale.smok]");
  CHECK(error_of(t).find("scale.smoke") != std::string::npos);
  t = kMinimal;
  t.replace(t.find("name = \"B\""), 10, "name = \"A\"");
  CHECK(error_of(t).find("two series named A") != std::string::npos);
  t = kMinimal;
  t.replace(t.find("values = \"10:30:10\""), 19, "values = [10, 10]");
  CHECK(error_of(t).find("appears twice") != std::string::npos);
  t = kMinimal + "[[expect]]\nkind = \"dominates\"\nseries = \"A\"\nover = \"C\"\n";
  CHECK(error_of(t).find("no series named C") != std::string::npos);
  t = kMinimal + "[plot]\nlog_x = 1\n";
  CHECK(error_of(t).find("plot.log_x") != std::string::npos);
  t = kMinimal;
  t.replace(t.find("name = \"A\""), 10, "name = \"A,B\"");
  CHECK(error_of(t).find("series[0].name") != std::string::npos);
  CHECK(error_of("[experiment\n").find("@1") != std::string::npos);  // TOML syntax: located
}

TEST_CASE("experiment: unit seeds depend only on the unit's identity") {
  const Resolved a = resolve(parse_manifest(kMinimal, "m.toml"), "paper", std::nullopt);
  const Resolved b = resolve(parse_manifest(kMinimal, "other.toml"), "paper", std::nullopt);
  for (std::uint64_t i = 0; i < a.units(); ++i) {
    CHECK(unit_seed(a, a.unit(i)) == unit_seed(b, b.unit(i)));
    if (i > 0) CHECK(unit_seed(a, a.unit(i)) != unit_seed(a, a.unit(i - 1)));
  }
  // The key is "NAME|panel|x|trial": a different seed or name changes every unit's seed.
  const Resolved c = resolve(parse_manifest(kMinimal, "m.toml"), "paper", 2);
  CHECK(unit_seed(a, a.unit(0)) != unit_seed(c, c.unit(0)));
  // FNV-1a 64 of "a" (the published test vector).
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
  CHECK(fnv1a64("") == 0xcbf29ce484222325ULL);
}

TEST_CASE("experiment: Wilson 95% intervals on worked examples and at the boundaries") {
  Wilson w = wilson95(5, 10);
  CHECK(w.value == doctest::Approx(0.5));
  CHECK(w.low == doctest::Approx(0.236593).epsilon(1e-5));
  CHECK(w.high == doctest::Approx(0.763407).epsilon(1e-5));
  w = wilson95(0, 10);
  CHECK(w.low == 0.0);
  CHECK(w.high == doctest::Approx(0.277530).epsilon(1e-5));
  w = wilson95(10, 10);
  CHECK(w.low == doctest::Approx(0.722470).epsilon(1e-5));
  CHECK(w.high == 1.0);
  w = wilson95(1, 1);
  CHECK(w.low > 0.0);
  CHECK(w.high == 1.0);
}

TEST_CASE("experiment: breakdown interpolates the first crossing below the level") {
  const std::vector<double> x{10, 20, 30, 40};
  CHECK(breakdown(x, {1.0, 0.8, 0.2, 0.0}, 0.5) == doctest::Approx(25.0));
  CHECK(breakdown(x, {1.0, 0.5, 0.4, 0.0}, 0.5) ==
        doctest::Approx(20.0));                            // at the level: not below
  CHECK(breakdown(x, {1.0, 1.0, 1.0, 1.0}, 0.5) == 40.0);  // never below: the last x
  CHECK(breakdown(x, {0.4, 0.1, 0.0, 0.0}, 0.5) == 10.0);  // starts below: the first x
  CHECK(breakdown({}, {}, 0.5) == 0.0);
}

TEST_CASE("experiment: percent_of gives the generator x% of a parameter, exactly") {
  std::string t = kMinimal;
  t.replace(t.find("x = \"total_util_pct\""), 20, "x = \"total_util\"\npercent_of = \"cores\"");
  t.replace(t.find("values = \"10:30:10\""), 19, "values = [5, 30, 100]");
  const Resolved r = resolve(parse_manifest(t, "m.toml"), "paper", std::nullopt);
  CHECK(unit_params(r, r.unit(0)).at("total_util").value == "0.40");  // 5% of 8
  CHECK(unit_params(r, r.unit(4)).at("total_util").value == "2.40");  // 30% of 8
  CHECK(unit_params(r, r.unit(8)).at("total_util").value == "8.00");  // 100% of 8
  CHECK(r.points[1].x == "30");  // the CSV keeps the percentage
  // x must then be an integer percentage; the parameter must be an integer.
  std::string bad = t;
  bad.replace(bad.find("values = [5, 30, 100]"), 21, "values = [\"2.5\"]");
  CHECK(error_of(bad).find("integer percentages") != std::string::npos);
  bad = t;
  bad.replace(bad.find("cores = 8"), 9, "cores = \"eight\"");
  const Resolved rb = resolve(parse_manifest(bad, "m.toml"), "paper", std::nullopt);
  CHECK_THROWS_AS((void)unit_params(rb, rb.unit(0)), InputError);
}

namespace {

// simulation_manifest is kMinimal as a simulation manifest: series B (a bound, which cannot be
// simulated) becomes a second planner series with the given simulation keys.
std::string simulation_manifest(const std::string& series_b_keys) {
  std::string t = kMinimal;
  t.insert(t.find("name = \"t\"") + 10, "\nclass = \"simulation\"");
  t.replace(t.find("bound = \"3.73\""), 14, "planner = \"fork-join-rta\"\n" + series_b_keys);
  return t;
}

}  // namespace

TEST_CASE("experiment: simulation series take a team model and its costs") {
  const Manifest m = parse_manifest(
      simulation_manifest("team_model = \"steal\"\nsteal_cost = \"3us\"\nsteal_attempt = "
                          "\"500ns\"\nspawn_cost = \"200ns\""),
      "m.toml");
  REQUIRE(m.series[1].sim.has_value());
  CHECK(m.series[1].sim->options.team_model == rtpar::TeamModel::steal);
  CHECK(m.series[1].sim->options.steal_cost_ns == 3000);
  CHECK(m.series[1].sim->options.steal_attempt_ns == 500);
  CHECK(m.series[1].sim->options.spawn_cost_ns == 200);
  CHECK(m.series[0].sim->options.team_model == rtpar::TeamModel::greedy);
  const Manifest c = parse_manifest(
      simulation_manifest("team_model = \"centralized\"\nqueue_lock = \"2us\""), "m.toml");
  CHECK(c.series[1].sim->options.team_model == rtpar::TeamModel::centralized);
  CHECK(c.series[1].sim->options.queue_lock_ns == 2000);
  CHECK(error_of(simulation_manifest("team_model = \"steal\"")).find("series[1].steal_attempt") !=
        std::string::npos);
  CHECK(
      error_of(simulation_manifest("steal_cost = \"1us\"")).find("needs team_model = \"steal\"") !=
      std::string::npos);
  CHECK(error_of(simulation_manifest("team_model = \"steal\"\nsteal_attempt = \"1us\"\n"
                                     "queue_lock = \"1us\""))
            .find("series[1].queue_lock") != std::string::npos);
  CHECK(error_of(simulation_manifest("team_model = \"robin\"")).find("series[1].team_model") !=
        std::string::npos);
}

TEST_CASE("experiment: simulation manifests read their series' keys strictly") {
  const Manifest m = parse_manifest(simulation_manifest("hyperperiods = 2\ncontext_switch = "
                                                        "\"2us\"\nadmission = false"),
                                    "m.toml");
  CHECK(m.klass == ManifestClass::simulation);
  REQUIRE(m.series[1].sim.has_value());
  CHECK(m.series[1].sim->hyperperiods == 2);
  CHECK(m.series[1].sim->options.context_switch_ns == 2000);
  CHECK_FALSE(m.series[1].sim->admission);
  REQUIRE(m.series[0].sim.has_value());  // defaults: admission, one hyperperiod, no overhead
  CHECK(m.series[0].sim->admission);
  CHECK(m.series[0].sim->overhead == nullptr);
  CHECK(error_of(simulation_manifest("horizon = \"5 parsecs\""))
            .find("series[1].horizon: invalid duration") != std::string::npos);
  CHECK(error_of(simulation_manifest("horizon = \"1s\"\nhyperperiods = 2"))
            .find("series[1].hyperperiods") != std::string::npos);
  CHECK(error_of(simulation_manifest("sim_overhead = \"nosuch.json\""))
            .find("series[1].sim_overhead: cannot read") != std::string::npos);
  CHECK(error_of(simulation_manifest("overhead_statistic = \"p99\""))
            .find("needs a `sim_overhead`") != std::string::npos);
  CHECK(error_of(simulation_manifest("admision = true")).find("admision") != std::string::npos);
  // The same keys in an analysis manifest are unknown there.
  std::string t = kMinimal;
  t.insert(t.find("planner = \"fork-join-rta\"") + 25, "\nhyperperiods = 2");
  CHECK(error_of(t).find("hyperperiods") != std::string::npos);
  // A bound is not simulated.
  t = kMinimal;
  t.insert(t.find("name = \"t\"") + 10, "\nclass = \"simulation\"");
  CHECK(error_of(t).find("cannot be simulated") != std::string::npos);
}

TEST_CASE("experiment: required_cores and its threshold and machine, strictly") {
  const Manifest m = parse_manifest(
      simulation_manifest("required_cores = true\nmiss_threshold = 0.6\nmax_cores = 12"), "m.toml");
  REQUIRE(m.series[1].sim->core_increase.has_value());
  CHECK(m.series[1].sim->core_increase->miss_threshold == doctest::Approx(0.6));
  CHECK(m.series[1].sim->core_increase->max_cores == 12);
  CHECK_FALSE(m.series[0].sim->core_increase.has_value());
  // Defaults: 25% (WS1's text), the set's own cores (0 here, resolved per trial).
  const Manifest d = parse_manifest(simulation_manifest("required_cores = true"), "m.toml");
  CHECK(d.series[1].sim->core_increase->miss_threshold == doctest::Approx(0.25));
  CHECK(d.series[1].sim->core_increase->max_cores == 0);
  CHECK(error_of(simulation_manifest("miss_threshold = 0.5"))
            .find("series[1].miss_threshold: needs required_cores = true") != std::string::npos);
  CHECK(error_of(simulation_manifest("required_cores = true\nmiss_threshold = 1.5"))
            .find("series[1].miss_threshold: expected a number in [0, 1]") != std::string::npos);
  CHECK(error_of(simulation_manifest("required_cores = true\nmax_cores = 0"))
            .find("series[1].max_cores") != std::string::npos);
  CHECK(
      error_of(simulation_manifest("required_cores = \"yes\"")).find("series[1].required_cores") !=
      std::string::npos);
  // Plotting required cores needs a series that searches them; y takes only known columns.
  std::string t = simulation_manifest("horizon = \"1s\"");
  CHECK(error_of(t + "[plot]\ny = \"required_cores\"\n")
            .find("plot.y: required_cores needs a [[series]]") != std::string::npos);
  CHECK(error_of(t + "[plot]\ny = \"mean_rel_response\"\n").empty());
  CHECK(error_of(t + "[plot]\ny = \"speed\"\n").find("plot.y: expected fraction") !=
        std::string::npos);
  CHECK(error_of(kMinimal + "[plot]\ny = \"mean_miss_ratio\"\n")
            .find("plot.y: needs a simulation or runtime manifest") != std::string::npos);
  const Manifest two =
      parse_manifest(t + "[plot]\ny = [\"mean_miss_ratio\", \"mean_rel_response\"]\n", "m.toml");
  CHECK(two.plot.y == std::vector<std::string>{"mean_miss_ratio", "mean_rel_response"});
  CHECK(error_of(t + "[plot]\ny = []\n").find("plot.y: expected a string or an array") !=
        std::string::npos);
}

TEST_CASE("experiment: admitted_by redraws refused sets (WS4), deterministically") {
  std::string t = kMinimal;
  t.replace(t.find("values = \"10:30:10\""), 19, "values = \"60:90:30\"");
  t.insert(t.find("name = \"t\"") + 10, "\nadmitted_by = \"fork-join-rta\"\nredraw_limit = 50");
  const Resolved r = resolve(parse_manifest(t, "m.toml"), "paper", std::nullopt);
  REQUIRE(r.manifest.admitted_by == rtpar::PlannerKind::fork_join_rta);
  CHECK(r.manifest.redraw_limit == 50);
  int redrawn = 0;
  for (std::uint64_t i = 0; i < r.units(); ++i) {
    const UnitDraw d = draw_unit(r, r.unit(i));
    CHECK(d.draws >= 1);
    CHECK(d.draws <= 50);
    CHECK(rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, d.generated.set).schedulable ==
          d.admitted);
    if (!d.admitted) CHECK(d.draws == 50);
    if (d.draws > 1) ++redrawn;
    // The same unit draws the same sets on every call (any split gives the same rows).
    const UnitDraw again = draw_unit(r, r.unit(i));
    CHECK(again.draws == d.draws);
    CHECK(again.generated.set.tasks.size() == d.generated.set.tasks.size());
  }
  CHECK(redrawn > 0);  // the sweep reaches sets that fork-join-rta refuses
  CHECK(error_of(t + "").empty());
  std::string bad = kMinimal;
  bad.insert(bad.find("name = \"t\"") + 10, "\nadmitted_by = \"magic\"");
  CHECK(error_of(bad).find("experiment.admitted_by: unknown planner") != std::string::npos);
  bad = kMinimal;
  bad.insert(bad.find("name = \"t\"") + 10, "\nredraw_limit = 5");
  CHECK(error_of(bad).find("experiment.redraw_limit: needs admitted_by") != std::string::npos);
}
