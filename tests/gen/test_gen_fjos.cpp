// test_gen_fjos.cpp — the FJOS generator (FJOS §VIII, F1–F9) and to_toml: determinism, the
// structure and utilization rules, the keep filter, errors naming generator.<key>, and a round trip
// through the task-set parser.
#include <doctest/doctest.h>

#include <string>

#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/generate.hpp"

using rtpar::gen::Params;

namespace {

// total_util sums C/T.
double total_util(const rtpar::TaskSet& set) {
  double u = 0;
  for (const auto& t : set.tasks) u += t.utilization();
  return u;
}

// field_of returns the field of the InputError that generate throws (or "" when none).
std::string field_of(std::string_view family, const Params& params) {
  try {
    rtpar::gen::generate(family, params, 1);
  } catch (const rtpar::InputError& e) {
    return e.field();
  }
  return "";
}

}  // namespace

TEST_CASE("gen fjos: defaults follow F1-F9") {
  const auto g = rtpar::gen::generate("fjos", {}, 12345);
  const auto& set = g.set;
  CHECK(set.system.cores.size() == 40);
  CHECK(set.system.cores_from_count);
  CHECK(set.system.sockets == 4);
  CHECK(set.system.planner == rtpar::PlannerKind::fork_join_rta);
  REQUIRE(set.tasks.size() >= 7);
  // 50% of 40 cores = 20, the last task taking the remainder (F8); each U_i ≤ drawn value.
  CHECK(total_util(set) <= 20.0);
  CHECK(total_util(set) == doctest::Approx(20.0).epsilon(1e-4));
  for (std::size_t i = 0; i < set.tasks.size(); ++i) {
    const auto& t = set.tasks[i];
    CHECK(t.deadline == t.period);
    REQUIRE(t.segments.size() == 19);  // 10 parallel stages, 9 one-strand separators (F3, F4)
    const auto c = t.segments[0].length;
    for (std::size_t s = 0; s < t.segments.size(); ++s) {
      CHECK(t.segments[s].length == c);  // F2: equal strand WCETs
      if (s % 2 == 1) CHECK(t.segments[s].strands == 1);
      CHECK(t.segments[s].strands >= 1);
      CHECK(t.segments[s].strands <= 100);
    }
    CHECK(t.work <= std::chrono::milliseconds(10));  // PTET = C^max, rounded down (F5)
    CHECK(t.span <= t.period);                       // F9
    if (i + 1 < set.tasks.size()) {
      CHECK(t.utilization() >= 2.0 - 1e-3);
      CHECK(t.utilization() <= 4.0);
    }
  }
}

TEST_CASE("gen fjos: deterministic, and the seed matters") {
  const auto a = rtpar::gen::generate("fjos", {}, 7);
  const auto b = rtpar::gen::generate("fjos", {}, 7);
  const auto c = rtpar::gen::generate("fjos", {}, 8);
  CHECK(rtpar::gen::to_toml(a.set, "") == rtpar::gen::to_toml(b.set, ""));
  CHECK(rtpar::gen::to_toml(a.set, "") != rtpar::gen::to_toml(c.set, ""));
}

// kGoldenFjos is the FJOS set of seed 2024 with the parameters below: it changes only when the
// engine, a distribution or the generator changes, each of which changes every experiment.
const std::string kGoldenFjos = R"(# golden

[system]
cores = 8
planner = "fork-join-rta"
sockets = 2

[[task]]
name = "t0"
period = "476.145us"
[[task.segment]]
strands = 2
length = "142.857us"
[[task.segment]]
strands = 1
length = "142.857us"
[[task.segment]]
strands = 4
length = "142.857us"

[[task]]
name = "t1"
period = "526.371us"
[[task.segment]]
strands = 2
length = "142.857us"
[[task.segment]]
strands = 1
length = "142.857us"
[[task.segment]]
strands = 4
length = "142.857us"
)";

TEST_CASE("gen fjos: golden draw") {
  Params p{{"cores", {"8", {}}},  {"sockets", {"2", {}}},         {"total_util_pct", {"50", {}}},
           {"ptet", {"1ms", {}}}, {"parallel_stages", {"2", {}}}, {"strands_max", {"4", {}}}};
  const auto g = rtpar::gen::generate("fjos", p, 2024);
  const std::string toml = rtpar::gen::to_toml(g.set, "golden");
  CHECK(g.redraws == 13);
  CHECK(toml == kGoldenFjos);
}

TEST_CASE("gen fjos: options F2-F4 and the keep filter") {
  Params wrap{{"wrap", {"true", {}}},
              {"separator_len", {"tiny", {}}},
              {"strand_wcet", {"uniform-per-stage", {}}}};
  const auto g = rtpar::gen::generate("fjos", wrap, 3);
  for (const auto& t : g.set.tasks) {
    REQUIRE(t.segments.size() == 21);
    CHECK(t.segments.front().strands == 1);
    CHECK(t.segments.back().strands == 1);
    CHECK(t.segments.front().length < t.segments[1].length);
    CHECK(t.work <= std::chrono::milliseconds(10));
  }
  // One stage of up to 250 strands with PTU 200 ± 1 fails c_cpl ≤ p often: redraws are counted.
  Params heavy{{"ptu", {"200", {}}},          {"total_util_pct", {"100", {}}},
               {"cores", {"400", {}}},        {"sockets", {"1", {}}},
               {"strands_min", {"1", {}}},    {"strands_max", {"250", {}}},
               {"parallel_stages", {"1", {}}}};
  const auto h = rtpar::gen::generate("fjos", heavy, 5);
  CHECK(h.redraws > 0);
  for (const auto& t : h.set.tasks) CHECK(t.span <= t.period);
}

TEST_CASE("gen fjos: errors name generator.<key>") {
  CHECK(field_of("nope", {}) == "generator.family");
  CHECK(field_of("fjos", {{"bogus", {"1", {}}}}) == "generator.bogus");
  CHECK(field_of("fjos", {{"cores", {"x", {}}}}) == "generator.cores");
  CHECK(field_of("fjos", {{"cores", {"0", {}}}}) == "generator.cores");
  CHECK(field_of("fjos", {{"ptu", {"1", {}}}}) == "generator.ptu");
  CHECK(field_of("fjos", {{"ptet", {"10 parsecs", {}}}}) == "generator.ptet");
  CHECK(field_of("fjos", {{"keep", {"some", {}}}}) == "generator.keep");
  CHECK(field_of("fjos", {{"planner", {"magic", {}}}}) == "generator.planner");
  CHECK(field_of("fjos", {{"strands_min", {"5", {}}}, {"strands_max", {"4", {}}}}) ==
        "generator.strands_max");
  try {
    rtpar::gen::generate("fjos", {{"cores", {"-1", {"m.toml", 3, 9}}}}, 1);
    FAIL("no error");
  } catch (const rtpar::InputError& e) {
    CHECK(std::string(e.what()).find("m.toml:3:9") != std::string::npos);
  }
}

TEST_CASE("gen fjos: to_toml round trip") {
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    const auto g = rtpar::gen::generate("fjos", {}, seed);
    const std::string text = rtpar::gen::to_toml(g.set, "fjos seed\nsecond line");
    const rtpar::TaskSet back = rtpar::parse_taskset(text, "<round-trip>");
    CHECK(back.system.cores == g.set.system.cores);
    CHECK(back.system.sockets == g.set.system.sockets);
    CHECK(back.system.planner == g.set.system.planner);
    REQUIRE(back.tasks.size() == g.set.tasks.size());
    for (std::size_t i = 0; i < back.tasks.size(); ++i) {
      const auto& x = back.tasks[i];
      const auto& y = g.set.tasks[i];
      CHECK(x.name == y.name);
      CHECK(x.period == y.period);
      CHECK(x.deadline == y.deadline);
      CHECK(x.work == y.work);
      CHECK(x.span == y.span);
      CHECK(x.kernel == y.kernel);
      REQUIRE(x.segments.size() == y.segments.size());
      for (std::size_t s = 0; s < x.segments.size(); ++s) {
        CHECK(x.segments[s].strands == y.segments[s].strands);
        CHECK(x.segments[s].length == y.segments[s].length);
      }
    }
    CHECK(rtpar::gen::to_toml(back, "fjos seed\nsecond line") == text);
  }
}

TEST_CASE("gen to_toml: every field a generator may set round-trips") {
  const std::string text = R"([system]
cores = [0, 2, 3]
planner = "partitioned"
fit = "worst-fit"
delta = 2.25
nonrt_cores = [3]
fork_join_overhead = "3us"
memory_limit = 1048576

[[task]]
name = "a"
period = "10ms"
deadline = "8ms"
phase = "1ms"
work = "2ms"
span = "1ms"
priority = 40
places = [0, 2]
threads = 2
overrun = "skip"
wait = "spin"

[[task]]
name = "b"
period = "20ms"
work = "1ms"
runtime = "steal"
steal = { max_depth = 64, idle_spin = "5us" }
places = [2]

[[task]]
name = "c"
period = "30ms"
wait_spin = "10us"
[[task.node]]
name = "x"
length = "1ms"
[[task.node]]
name = "y"
length = "2ms"
after = ["x"]

[[channel]]
name = "ch"
kind = "retry"
size = 64
numtries = 3
writer = "a"
readers = ["b", "nonrt"]
)";
  const rtpar::TaskSet set = rtpar::parse_taskset(text, "<fields>");
  const std::string out = rtpar::gen::to_toml(set, "");
  CHECK(out == text);
  const rtpar::TaskSet back = rtpar::parse_taskset(out, "<fields>");
  CHECK(back.tasks[1].steal.max_depth == 64);
  CHECK(back.system.fork_join_overhead == std::chrono::microseconds(3));
}
