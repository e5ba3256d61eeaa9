// test_omprt_wcet_table.cpp — the omprt generator sized by a measured OpenMP-RT Table 1
// (`rtpar bench wcet --json`, src/gen/omprt_wcet_table.hpp).
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "gen/omprt_wcet_table.hpp"
#include "rtpar/error.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/generate.hpp"

namespace {

// kKernelNames are Table 1's kernels as `rtpar bench wcet` spells them.
const char* const kKernelNames[] = {"alignment", "fft",       "fib",        "floorplan",
                                    "health",    "NQueens",   "knapsack",   "sort",
                                    "sparselu",  "strassen",  "uts",        "TaskBench",
                                    "ArrayBench", "SyncBench", "SchedBench"};

// wcet_json is a `rtpar bench wcet --json` document: every kernel on `runtime` with WCETs
// seq_ns and two_ns (and a libgomp row of 1 ns that must be ignored), minus kernel `skip`.
std::string wcet_json(const std::string& runtime, long seq_ns, long two_ns,
                      const std::string& skip = "") {
  std::string rows;
  for (const char* k : kKernelNames) {
    if (k == skip) continue;
    for (const auto& [rt, t, ns] : {std::tuple<std::string, int, long>{runtime, 1, seq_ns},
                                    {runtime, 2, two_ns},
                                    {"libgomp", 1, 1},
                                    {"libgomp", 2, 1}}) {
      rows += (rows.empty() ? "" : ",") + std::string("{\"runtime\":\"") + rt +
              "\",\"kernel\":\"" + k + "\",\"threads\":" + std::to_string(t) +
              ",\"max_ns\":" + std::to_string(ns) + "}";
    }
  }
  return "{\"bench\":\"wcet\",\"wcet\":[" + rows + "]}";
}

// wcet_params builds generator parameters from key/value pairs.
rtpar::gen::Params wcet_params(std::initializer_list<std::pair<const char*, std::string>> kv) {
  rtpar::gen::Params p;
  for (const auto& [k, v] : kv) p[k] = {v, {}};
  return p;
}

}  // namespace

TEST_CASE("omprt wcet table: parsed per runtime, lower-cased, both team sizes required") {
  const auto t = rtpar::gen::parse_wcet_table(wcet_json("rtpar", 300'000, 170'000), "rtpar");
  CHECK(t.size() == 15);
  REQUIRE(t.count("nqueens") == 1);
  CHECK(t.at("nqueens").seq_ns == 300'000);
  CHECK(t.at("taskbench").two_ns == 170'000);
  CHECK_THROWS_AS(rtpar::gen::parse_wcet_table("not json", "rtpar"), std::runtime_error);
  CHECK_THROWS_AS(rtpar::gen::parse_wcet_table("{}", "rtpar"), std::runtime_error);
  CHECK_THROWS_AS(rtpar::gen::parse_wcet_table(wcet_json("rtpar", 1, 1), "libomp"),
                  std::runtime_error);
  CHECK_THROWS_AS(rtpar::gen::parse_wcet_table(
                      R"({"wcet":[{"runtime":"rtpar","kernel":"fib","threads":1,"max_ns":5}]})",
                      "rtpar"),
                  std::runtime_error);  // no 2-thread row
  CHECK_THROWS_AS(rtpar::gen::parse_wcet_table(
                      R"({"wcet":[{"runtime":"rtpar","kernel":"fib","threads":1,"max_ns":1.5}]})",
                      "rtpar"),
                  std::runtime_error);  // not whole ns
}

TEST_CASE("omprt wcet table: the generator takes its WCETs from the file") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string good = (dir / "rtpar_test_wcet_good.json").string();
  const std::string partial = (dir / "rtpar_test_wcet_partial.json").string();
  std::ofstream(good) << wcet_json("rtpar", 300'000, 170'000);
  std::ofstream(partial) << wcet_json("rtpar", 300'000, 170'000, "uts");
  const auto g = rtpar::gen::generate(
      "omprt", wcet_params({{"cores", "4"}, {"comm_prob", "0"}, {"wcet_table", good}}), 1);
  REQUIRE(!g.set.tasks.empty());
  for (const auto& t : g.set.tasks) {
    // Every task's WCET is the file's: 300 us alone, 170 us per thread on two.
    CHECK(t.span == std::chrono::nanoseconds(t.threads == 2 ? 170'000 : 300'000));
  }
  // The paper's table by default: not the file's lengths.
  const auto paper = rtpar::gen::generate("omprt", wcet_params({{"cores", "4"}}), 1);
  std::set<std::int64_t> spans;
  for (const auto& t : paper.set.tasks) spans.insert(t.span.count());
  CHECK(spans.count(300'000) == 0);
  CHECK_THROWS_AS(rtpar::gen::generate("omprt", wcet_params({{"wcet_table", partial}}), 1),
                  rtpar::InputError);
  CHECK_THROWS_AS(
      rtpar::gen::generate("omprt", wcet_params({{"wcet_table", good + ".missing"}}), 1),
      rtpar::InputError);
  std::remove(good.c_str());
  std::remove(partial.c_str());
}
