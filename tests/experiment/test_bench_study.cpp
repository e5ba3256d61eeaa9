// test_bench_study.cpp — bench manifests (class = "bench"): reading [bench], panels' and series'
// record matches, record matching by value, raw rows round trip, and the merged medians.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/manifest.hpp"
#include "experiment/merge.hpp"
#include "experiment/raw_rows.hpp"
#include "experiment/trial.hpp"
#include "experiment/units.hpp"
#include "support/scratch_file.hpp"

using namespace rtpar;
using namespace rtpar::experiment;

namespace {

// kBench is a small valid bench manifest: 2 panels × 2 x values, 2 series, 2 metrics.
const std::string kBench = R"([experiment]
name = "b"
class = "bench"
[bench]
driver = "forkjoin"
args = ["--fifo"]
x_option = "--threads"
metrics = ["mean_ns", "max_ns"]
[[panel]]
name = "back"
match = { construct = "region" }
[[panel]]
name = "periodic"
args = ["--period", "2ms"]
match = { construct = "periodic-region" }
[sweep]
x = "threads"
values = [2, 3]
[[series]]
name = "spin"
match = { runtime = "rtpar-spin" }
[[series]]
name = "gomp"
match = { runtime = "libgomp-active", threads = 2 }
[scale.paper]
trials = 3
args = ["--iters", "1000"]
[scale.smoke]
trials = 1
)";

// error_of parses text and returns "field: message" of its InputError (empty when it parses).
std::string error_of(const std::string& text) {
  try {
    (void)parse_manifest(text, "m.toml");
  } catch (const InputError& e) {
    return e.field() + ": " + e.message();
  }
  return "";
}

// replaced is text with its first `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("bench study: [bench], panel args and matches, series matches and scale args read") {
  const Manifest m = parse_manifest(kBench, "m.toml");
  CHECK(m.klass == ManifestClass::bench);
  REQUIRE(m.bench);
  CHECK(m.bench->driver == "forkjoin");
  CHECK(m.bench->args == std::vector<std::string>{"--fifo"});
  CHECK(m.bench->x_option == "--threads");
  CHECK(m.bench->records == "results");
  CHECK(m.bench->metrics == std::vector<std::string>{"mean_ns", "max_ns"});
  REQUIRE(m.panels.size() == 2);
  CHECK(m.panels[1].args == std::vector<std::string>{"--period", "2ms"});
  CHECK(m.panels[1].match.at("construct") == "periodic-region");
  CHECK(m.series[1].match.at("threads") == "2");
  CHECK(m.scales.at("paper").args == std::vector<std::string>{"--iters", "1000"});
  CHECK(m.plot.y == std::vector<std::string>{"median_mean_ns"});
  CHECK(measures(m));
  CHECK_FALSE(executes(m));
  CHECK(resolve(m, "paper", std::nullopt).units() == 12);
}

TEST_CASE("bench study: a bad manifest names the field") {
  CHECK(error_of(replaced(kBench, "driver = \"forkjoin\"", "driver = \"planners\"")) ==
        "bench.driver: expected forkjoin, latency, channels, steal, omp or wcet (an `rtpar bench` "
        "subcommand)");
  CHECK(error_of(replaced(kBench, "args = [\"--fifo\"]", "args = [\"--json\"]"))
            .starts_with("bench.args: \"--json\" is the study's to give"));
  CHECK(error_of(replaced(kBench, "metrics = [\"mean_ns\", \"max_ns\"]", "metrics = []"))
            .starts_with("bench.metrics: expected a non-empty array"));
  CHECK(error_of(replaced(kBench, "match = { runtime = \"rtpar-spin\" }", "planner = \"x\""))
            .starts_with("series[0].planner: unknown key"));
  CHECK(error_of(replaced(kBench, "match = { runtime = \"rtpar-spin\" }", ""))
            .starts_with("series[0].match: expected a non-empty table"));
  CHECK(error_of(replaced(kBench, "class = \"bench\"", "")) ==
        "bench: [bench] needs class = \"bench\"");
  CHECK(error_of(replaced(kBench, "[bench]", "[generator]\nfamily = \"fjos\"\n[bench]")) ==
        "generator: a bench study has no [generator]");
  CHECK(error_of(kBench + "[plot]\ny = \"fraction\"\n")
            .starts_with("plot.y: expected median_M, min_M or max_M"));
  CHECK(error_of(kBench + "[plot]\ny = [\"max_max_ns\"]\n").empty());
  // [plot] box = true (P3LS3 Figs. 4b/5b) needs the percentiles the boxes are drawn from.
  CHECK(error_of(kBench + "[plot]\nbox = true\n")
            .starts_with("plot.box: needs the metric min_ns in [bench]"));
  const std::string percentiles = replaced(
      kBench, "metrics = [\"mean_ns\", \"max_ns\"]",
      "metrics = [\"min_ns\", \"p5_ns\", \"p25_ns\", \"p50_ns\", \"p75_ns\", \"p95_ns\", \"max_ns\"]");
  CHECK(error_of(percentiles + "[plot]\nbox = true\n").empty());
  CHECK(parse_manifest(percentiles + "[plot]\nbox = true\n", "m.toml").plot.box);
  CHECK_FALSE(parse_manifest(percentiles, "m.toml").plot.box);
  CHECK(error_of(percentiles + "[plot]\nbox = 1\n").starts_with("plot.box: expected true or false"));
  // A bench expectation compares a merged column (expect_column.hpp): never the fraction.
  const std::string expect =
      "[[expect]]\nkind = \"dominates\"\nseries = \"spin\"\nover = \"gomp\"\nscales = "
      "[\"paper\"]\n";
  CHECK(error_of(kBench + expect).starts_with("expect[0].column: a bench expectation names"));
  CHECK(error_of(kBench + expect + "column = \"median_mean_ns\"\n").empty());
  CHECK(error_of(replaced(kBench + expect + "column = \"median_mean_ns\"\n", "\"dominates\"",
                          "\"breakdown_ratio\""))
            .starts_with("expect[0].column: a breakdown is taken of the schedulable fraction"));
}

TEST_CASE("bench study: a record matches on every field, numbers by value") {
  const nlohmann::json record = {{"runtime", "rtpar-spin"},
                                 {"threads", 2},
                                 {"ratio", 0.25},
                                 {"fifo", true},
                                 {"note", nullptr}};
  CHECK(record_matches(record, {{"runtime", "rtpar-spin"}}));
  CHECK(record_matches(record, {{"runtime", "rtpar-spin"}, {"threads", "2"}}));
  CHECK(record_matches(record, {{"threads", "2.0"}}));
  CHECK(record_matches(record, {{"ratio", "0.25"}}));
  CHECK(record_matches(record, {{"fifo", "true"}}));
  CHECK_FALSE(record_matches(record, {{"fifo", "false"}}));
  CHECK_FALSE(record_matches(record, {{"threads", "3"}}));
  CHECK_FALSE(record_matches(record, {{"threads", "two"}}));
  CHECK_FALSE(record_matches(record, {{"runtime", "rtpar"}}));  // whole strings only
  CHECK_FALSE(record_matches(record, {{"construct", "region"}}));
  CHECK_FALSE(record_matches(record, {{"note", "null"}}));
  CHECK_FALSE(record_matches(nlohmann::json::array(), {{"runtime", "rtpar-spin"}}));
}

TEST_CASE("bench study: raw rows round trip, and merge takes medians, minima and maxima") {
  const Resolved r = resolve(parse_manifest(kBench, "m.toml"), "paper", std::nullopt);
  // Point 0 (back, x = 2): trials 0, 1, 2 -> units 0, 1, 2.
  const std::vector<std::vector<std::optional<double>>> spin = {
      {100.5, 900}, {120, 2000}, {110, std::nullopt}};
  std::string text = raw_header(r);
  for (std::int64_t t = 0; t < 3; ++t) {
    UnitResult u;
    u.unit = r.unit(static_cast<std::uint64_t>(t));
    SeriesResult a;
    a.verdict = Verdict::admitted;
    a.metrics = spin[static_cast<std::size_t>(t)];
    SeriesResult b;  // gomp: never available
    b.verdict = Verdict::not_applicable;
    b.metrics = {std::nullopt, std::nullopt};
    u.series = {a, b};
    text += raw_lines(r, u);
  }
  CHECK(text.find(",spin,measured,0,0.000000,0,0,100.5,900\n") != std::string::npos);
  CHECK(text.find(",gomp,n/a,0,0.000000,0,0,,\n") != std::string::npos);
  const rtpar::test::ScratchFile file(text, "bench_rows");
  const std::vector<RawRow> rows = read_raw(file.path(), r);
  REQUIRE(rows.size() == 6);
  CHECK(rows[0].verdict == Verdict::admitted);
  CHECK(rows[0].metrics == std::vector<std::optional<double>>{100.5, 900});
  CHECK(rows[5].verdict == Verdict::not_applicable);
  CHECK_FALSE(rows[4].metrics[1].has_value());

  const std::string csv = bench_csv(r, rows);
  // mean_ns over 3 trials: median 110, range 100.5..120; max_ns over the 2 that have it: the
  // mean of the two middle values, 1450.
  CHECK(csv.find("b,back,2,spin,3,3,110,100.5,120,1450,900,2000\n") != std::string::npos);
  CHECK(csv.find("b,back,2,gomp,3,0,,,,,,\n") != std::string::npos);
  // Points without rows say n = 0.
  CHECK(csv.find("b,periodic,3,spin,0,0,,,,,,\n") != std::string::npos);
  // Any order of rows merges to the same bytes.
  std::vector<RawRow> reversed(rows.rbegin(), rows.rend());
  CHECK(bench_csv(r, reversed) == csv);
}
