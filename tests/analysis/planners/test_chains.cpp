// test_chains.cpp — [[chain]] tables: the file rules (chain[i].tasks[k] with locations), the
// latency bounds (analysis/bounds/chain_latency.hpp) by hand, and max_age in the verdict.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/bounds/chain_latency.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/planners.hpp"
#include "rtpar/tools/report_io.hpp"
#include "support/rejected_input.hpp"

namespace {

// pipeline is camera (2 ms / 10 ms, core 0) → tracker (3 ms / 20 ms, core 1) → control (1 ms /
// 5 ms, core 0) through latest channels, partitioned, plus `chain` (lines from 28 on).
std::string pipeline(const std::string& chain) {
  return "[system]\ncores = [0, 1]\nplanner = \"partitioned\"\n"                             // 1-3
         "[[task]]\nname = \"camera\"\nperiod = \"10ms\"\nwork = \"2ms\"\npriority = 30\n"   // 4-8
         "places = [0]\n"                                                                    // 9
         "[[task]]\nname = \"tracker\"\nperiod = \"20ms\"\nwork = \"3ms\"\npriority = 20\n"  // 10-14
         "places = [1]\n"                                                                    // 15
         "[[task]]\nname = \"control\"\nperiod = \"5ms\"\nwork = \"1ms\"\npriority = 25\n"  // 16-20
         "places = [0]\n"                                                                   // 21
         "[[channel]]\nname = \"frame\"\nsize = 16\nwriter = \"camera\"\nreaders = [\"tracker\"]\n"  // 22-26
         "[[channel]]\nname = \"track\"\nsize = 16\nwriter = \"tracker\"\n"  // 27-30
         "readers = [\"control\"]\n" +                                       // 31
         chain;                                                              // 32-
}

// chain_rejected expects pipeline(chain) to be refused at `field`, `line`, saying `fragment`.
void chain_rejected(const std::string& chain, const std::string& field, int line,
                    const std::string& fragment) {
  testsupport::expect_rejected(pipeline(chain), "p.toml", field, line, fragment);
}

}  // namespace

TEST_CASE("chains: the bounds by hand, unknown without every response bound") {
  using rtpar::analysis::chain_latency;
  using rtpar::analysis::ChainStage;
  // T = 10, 20, 5 ms; R = 4, 3, 2 ms: reaction = 14 + 23 + 7 = 44 ms; age = 44 − 5 = 39 ms.
  const auto b =
      chain_latency({ChainStage{10'000'000, 4'000'000}, ChainStage{20'000'000, 3'000'000},
                     ChainStage{5'000'000, 2'000'000}});
  CHECK(b.reaction_ns == 44'000'000);
  CHECK(b.data_age_ns == 39'000'000);
  CHECK_FALSE(chain_latency({ChainStage{10, 4}, ChainStage{20, std::nullopt}}).reaction_ns);
  CHECK_FALSE(chain_latency({ChainStage{INT64_MAX, 4}, ChainStage{20, 3}}).data_age_ns);
}

TEST_CASE("chains: a plan bounds each chain; max_age admits or refuses the set") {
  const std::string chain =
      "[[chain]]\nname = \"see-act\"\ntasks = [\"camera\", \"tracker\", \"control\"]\n";
  const rtpar::TaskSet set = rtpar::parse_taskset(pipeline(chain), "p.toml");
  REQUIRE(set.chains.size() == 1);
  const rtpar::Plan plan = rtpar::plan_with(rtpar::PlannerKind::partitioned, set);
  REQUIRE(plan.schedulable);
  // R: camera 2 ms (top of core 0), tracker 3 ms (alone on core 1), control 1 + 2 = 3 ms.
  REQUIRE(plan.tasks[2].response_bound_ns == 3'000'000);
  REQUIRE(plan.chains.size() == 1);
  CHECK(plan.chains[0].reaction_ns == (10 + 2 + 20 + 3 + 5 + 3) * 1'000'000);  // 43 ms
  CHECK(plan.chains[0].data_age_ns == (10 + 2 + 20 + 3 + 3) * 1'000'000);      // 38 ms
  CHECK_FALSE(plan.chains[0].reason);
  const auto doc = nlohmann::json::parse(rtpar::plan_json(plan, set));
  CHECK(doc["chains"][0]["data_age_ns"] == 38'000'000);
  CHECK(doc["chains"][0]["max_age_ns"].is_null());
  CHECK(rtpar::plan_table(plan, set).find("camera → tracker → control") != std::string::npos);

  const rtpar::Plan met =
      rtpar::plan_with(rtpar::PlannerKind::partitioned,
                       rtpar::parse_taskset(pipeline(chain + "max_age = \"38ms\"\n"), "p.toml"));
  CHECK(met.schedulable);  // exactly at the bound
  const rtpar::Plan missed =
      rtpar::plan_with(rtpar::PlannerKind::partitioned,
                       rtpar::parse_taskset(pipeline(chain + "max_age = \"37ms\"\n"), "p.toml"));
  CHECK_FALSE(missed.schedulable);
  REQUIRE(missed.chains[0].reason);
  CHECK(missed.chains[0].reason->find("data-age bound 38ms exceeds max_age 37ms") == 0);
  // federated-ws gives no worst-case bound for heavy tasks, but these are light; under a planner
  // that refuses a task the chain has no bound and max_age refuses the set with the reason.
  rtpar::TaskSet refused = rtpar::parse_taskset(pipeline(chain + "max_age = \"1s\"\n"), "p.toml");
  refused.tasks[1].work = rtpar::Duration(std::chrono::milliseconds(25));  // C > D on one core
  refused.tasks[1].span = refused.tasks[1].work;
  refused.tasks[1].deadline = refused.tasks[1].period;
  const rtpar::Plan unknown = rtpar::plan_with(rtpar::PlannerKind::partitioned, refused);
  CHECK_FALSE(unknown.chains[0].data_age_ns);
  REQUIRE(unknown.chains[0].reason);
  CHECK(unknown.chains[0].reason->find("task 'tracker' has no worst-case response bound") == 0);
}

TEST_CASE("chains: file rules name chain[i].tasks[k] at its location") {
  chain_rejected("[[chain]]\nname = \"c\"\ntasks = [\"camera\", \"nobody\"]\n", "chain[0].tasks[1]",
                 34, "no task named \"nobody\"");
  chain_rejected("[[chain]]\nname = \"c\"\ntasks = [\"camera\", \"control\"]\n",
                 "chain[0].tasks[1]", 34, "\"camera\" does not feed \"control\"");
  chain_rejected("[[chain]]\nname = \"c\"\ntasks = [\"camera\"]\n", "chain[0].tasks", 34,
                 "at least two tasks");
  chain_rejected("[[chain]]\nname = \"c\"\ntasks = [\"camera\", \"tracker\"]\nmax_age = \"0ms\"\n",
                 "chain[0].max_age", 35, "must be > 0");
  chain_rejected("[[chain]]\nname = \"c\"\ntasks = [\"camera\", \"tracker\"]\ncolour = 1\n",
                 "chain[0].colour", 35, "unknown");
  // A lock between two tasks is not a chain link: named in the error.
  std::string lock = pipeline("");
  lock.replace(lock.find("name = \"track\"\n"), 15,
               "name = \"track\"\nkind = \"lock\"\nhold = \"1ms\"\n");
  lock += "[[chain]]\nname = \"c\"\ntasks = [\"tracker\", \"control\"]\n";
  try {
    (void)rtpar::parse_taskset(lock, "p.toml");
    FAIL_CHECK("accepted");
  } catch (const rtpar::InputError& e) {
    CHECK(e.field() == "chain[0].tasks[1]");
    CHECK(e.message().find("channel \"track\" connects them but is kind = \"lock\"") !=
          std::string::npos);
  }
}
