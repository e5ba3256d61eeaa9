// test_supply_server.cpp — the measured supply loss as a sliding-window server
// (src/analysis/bounds/supply_server.hpp): worked examples of I(t), the choice of window, the
// combination with the kernel's server checked against the sum window by window, and the
// planners charging it (docs/analysis.md "Supply loss").
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "analysis/bounds/server_interference.hpp"
#include "analysis/bounds/supply_server.hpp"
#include "rtpar/plan.hpp"
#include "rtpar/taskset.hpp"
#include "rtpar/tools/overhead.hpp"
#include "rtpar/tools/planners.hpp"
#include "support/overhead_fixtures.hpp"

using rtpar::analysis::combined_server;
using rtpar::analysis::PeriodicServer;
using rtpar::analysis::server_interference;
using rtpar::analysis::server_rta_tasks;
using rtpar::analysis::supply_server;

namespace {

constexpr std::int64_t kMs = 1'000'000;

rtpar::TaskSet deadlines(std::initializer_list<std::int64_t> ds) {
  rtpar::TaskSet set;
  int i = 0;
  for (const std::int64_t d : ds) {
    rtpar::TaskSpec t;
    t.name = "t" + std::to_string(i++);
    t.period = rtpar::Duration(d);
    t.deadline = rtpar::Duration(d);
    t.work = t.span = rtpar::Duration(1);
    set.tasks.push_back(t);
  }
  return set;
}

rtpar::OverheadProfile supply(std::initializer_list<rtpar::SupplyLoss> entries) {
  rtpar::OverheadProfile p;
  p.source = "supply.json";
  p.supply = entries;
  return p;
}

bool has_note(const rtpar::Plan& plan, const std::string& text) {
  return std::any_of(plan.notes.begin(), plan.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("sliding server: Q = 5 in every window of P = 100, window by window") {
  const PeriodicServer s{5, 100, false, "supply"};
  CHECK(server_interference(s, 0) == 0);
  CHECK(server_interference(s, 3) == 3);
  CHECK(server_interference(s, 5) == 5);
  CHECK(server_interference(s, 6) == 5);  // no jitter: one budget per window (deferred: 6)
  CHECK(server_interference(s, 100) == 5);
  CHECK(server_interference(s, 101) == 10);  // ⌈101/100⌉ = 2 windows
  CHECK(server_interference(s, 200) == 10);
  CHECK(server_interference(s, 201) == 15);
  // As RTA tasks it is the one periodic task (Q, P): ⌈R/P⌉·Q is already exact.
  CHECK(server_rta_tasks(s, 1000, 99).size() == 1);
  CHECK(server_rta_tasks(PeriodicServer{5, 100}, 1000, 99).size() == 2);
}

TEST_CASE("supply_server: the window whose worst I(D)/D is smallest, ties to the shorter") {
  // D = 10 and 20 ms. 1 ms: I = 6 and 12 ms (0.6). 10 ms: 1 and 2 ms (0.1). 50 ms: 3 ms (0.3).
  const auto s = supply_server(
      supply({{1 * kMs, 600'000, 10}, {10 * kMs, 1 * kMs, 10}, {50 * kMs, 3 * kMs, 10}}),
      deadlines({10 * kMs, 20 * kMs}));
  REQUIRE(s);
  CHECK(s->budget_ns == 1 * kMs);
  CHECK(s->period_ns == 10 * kMs);
  CHECK_FALSE(s->deferred);
  // A 1 ms deadline: 1 ms windows give 0.6, 10 ms windows 1.0 (the whole window), 50 ms 1.0.
  const auto short_d = supply_server(
      supply({{1 * kMs, 600'000, 10}, {10 * kMs, 1 * kMs, 10}, {50 * kMs, 3 * kMs, 10}}),
      deadlines({1 * kMs, 20 * kMs}));
  REQUIRE(short_d);
  CHECK(short_d->period_ns == 1 * kMs);
  // D = 20 ms: 10 ms windows of 1 ms and 20 ms windows of 2 ms both lose 2 ms: the shorter.
  const auto tie = supply_server(supply({{10 * kMs, 1 * kMs, 1}, {20 * kMs, 2 * kMs, 1}}),
                                 deadlines({20 * kMs}));
  REQUIRE(tie);
  CHECK(tie->period_ns == 10 * kMs);
  // Nothing to charge: no entry, a window that lost nothing (bounds every window by 0), no task.
  CHECK_FALSE(supply_server(supply({}), deadlines({10 * kMs})));
  CHECK_FALSE(
      supply_server(supply({{1 * kMs, 0, 1}, {10 * kMs, 5 * kMs, 1}}), deadlines({10 * kMs})));
  CHECK_FALSE(supply_server(supply({{1 * kMs, 10, 1}}), deadlines({})));
}

TEST_CASE("combined_server: bounds the kernel's server plus the supply loss in every window") {
  const PeriodicServer kernel{1 * kMs, 1000 * kMs};
  const PeriodicServer host{500'000, 10 * kMs, false, "supply"};
  CHECK(combined_server(std::nullopt, host)->period_ns == 10 * kMs);
  CHECK(combined_server(kernel, std::nullopt)->deferred);
  const auto both = combined_server(kernel, host);
  REQUIRE(both);
  CHECK(both->period_ns == 10 * kMs);
  CHECK(both->budget_ns == 2'500'000);  // 2·1 + 0.5 ms
  CHECK_FALSE(both->deferred);
  // Window by window (every 50 µs up to 3 s, and around every multiple of both periods): the
  // combined I(t) is at least min(t, I_K(t) + I_H(t)).
  for (const auto& [k, h] :
       {std::pair{kernel, host}, std::pair{PeriodicServer{3, 7}, PeriodicServer{2, 5, false, "s"}},
        std::pair{PeriodicServer{50 * kMs, 1000 * kMs},
                  PeriodicServer{4 * kMs, 20 * kMs, false, "s"}}}) {
    const PeriodicServer c = *combined_server(k, h);
    const std::int64_t step = std::max<std::int64_t>(1, std::min(k.period_ns, h.period_ns) / 200);
    for (std::int64_t t = 0; t <= 3 * std::max(k.period_ns, h.period_ns); t += step) {
      for (const std::int64_t u : {t, t + 1, t + h.budget_ns, t + k.budget_ns}) {
        const std::int64_t sum = server_interference(k, u) + server_interference(h, u);
        REQUIRE(server_interference(c, u) >= std::min(u, sum));
      }
    }
  }
  // 2·Q₁ + Q₂ above P: the combined server may take every instant.
  const auto full = combined_server(PeriodicServer{3, 7}, PeriodicServer{2, 5, false, "s"});
  CHECK(full->budget_ns == 5);
  CHECK(full->period_ns == 5);
}

TEST_CASE("supply loss: partitioned charges it in the response bound, boundary exact") {
  // C = 2 ms alone on core 0; 1 ms lost in any 10 ms: R = 2 + I(R) = 2 + 1 = 3 ms.

  const rtpar::OverheadProfile profile = rtpar::testing::costless_profile({{10 * kMs, 1 * kMs, 5}});
  rtpar::PlanOptions options;
  options.overhead = &profile;
  const auto with_deadline = [&](const std::string& d) {
    const std::string t =
        rtpar::testing::one_core_task("priority = 50\ndeadline = \"" + d + "\"\n");
    return rtpar::plan_with(rtpar::PlannerKind::partitioned, rtpar::parse_taskset(t, "<p>"),
                            options);
  };
  const rtpar::Plan at = with_deadline("3ms");
  REQUIRE(at.schedulable);
  CHECK(*at.tasks[0].response_bound_ns == 3 * kMs);
  CHECK(has_note(at, "the measured supply loss of 1ms every 10ms (in every window"));
  CHECK(has_note(at, "supply.json"));
  REQUIRE(at.supply);  // stated in the plan (its JSON "supply" and table line)
  CHECK(at.supply->loss_ns == 1 * kMs);
  CHECK(at.supply->window_ns == 10 * kMs);
  CHECK(at.supply->source == "supply.json");
  CHECK_FALSE(with_deadline("2999999ns").schedulable);
  // Without supply entries the same profile charges nothing: R = C.
  const rtpar::OverheadProfile none = rtpar::testing::costless_profile({});
  options.overhead = &none;
  CHECK(*with_deadline("3ms").tasks[0].response_bound_ns == 2 * kMs);
  CHECK_FALSE(with_deadline("3ms").supply);
}

TEST_CASE("supply loss: federated and fork-join-rta charge it like the kernel's server") {
  // The demo: C = 21 ms, L = 6 ms, D = 20 ms on 2 cores; 1 ms lost in any 1 s window.
  const rtpar::TaskSet set = rtpar::parse_taskset(rtpar::testing::demo_set(), "<demo>");
  const rtpar::OverheadProfile profile =
      rtpar::testing::costless_profile({{1000 * kMs, 1 * kMs, 5}});
  rtpar::PlanOptions options;
  options.overhead = &profile;
  // federated: R = L + ⌈(C − L)/m⌉ + m·I(R) = 6 + 7.5 + 2·1 = 15.5 ms (the deferred server of
  // the same size charges 2·2 ms: test_interference_charge.cpp).
  const rtpar::Plan fed = rtpar::plan_with(rtpar::PlannerKind::federated, set, options);
  REQUIRE(fed.schedulable);
  CHECK(*fed.tasks[0].response_bound_ns == 15'500'000);
  CHECK(has_note(fed, "interference charged: the measured supply loss"));
  // fork-join-rta: 12 ms uncharged; each stage's window holds 1 ms of loss (no jitter):
  //   stage 0 (a): 1.5 + 1 = 2.5; stage 1: a chains 1.5 + 9 + 1 = 11.5, b from 2.5: 9 + 1 →
  //   12.5; stage 2 (a): chain 11.5 + 1.5 + 1 = 14 or from b's 12.5: 1.5 + 1 → 15.  R = 15 ms.
  const rtpar::Plan fj = rtpar::plan_with(rtpar::PlannerKind::fork_join_rta, set, options);
  REQUIRE(fj.schedulable);
  CHECK(*fj.tasks[0].response_bound_ns == 15 * kMs);
}
