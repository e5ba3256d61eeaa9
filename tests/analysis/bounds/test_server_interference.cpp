// test_server_interference.cpp — the kernel's server as interference
// (src/analysis/bounds/server_interference.hpp): worked examples, boundaries, overflow.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "analysis/bounds/rta.hpp"
#include "analysis/bounds/server_interference.hpp"

using rtpar::Duration;
using rtpar::analysis::dag_response_with_server;
using rtpar::analysis::PeriodicServer;
using rtpar::analysis::response_time;
using rtpar::analysis::RtaTask;
using rtpar::analysis::server_interference;
using rtpar::analysis::server_rta_tasks;

TEST_CASE("server_interference: Q = 5 every P = 100, window by window") {
  const PeriodicServer s{5, 100};
  CHECK(server_interference(s, 0) == 0);
  CHECK(server_interference(s, 3) == 3);  // the whole window (t ≤ Q)
  CHECK(server_interference(s, 5) == 5);
  CHECK(server_interference(s, 6) == 6);    // a deferred budget then the next one: up to 2Q
  CHECK(server_interference(s, 10) == 10);  // 2Q back to back
  CHECK(server_interference(s, 11) == 10);
  CHECK(server_interference(s, 105) == 10);   // ⌈(105 + 95)/100⌉ = 2
  CHECK(server_interference(s, 106) == 15);   // ⌈201/100⌉ = 3
  CHECK(server_interference(s, 1000) == 55);  // ⌈1095/100⌉ = 11
}

TEST_CASE("server_interference: boundaries and 64-bit extremes") {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  CHECK(server_interference({7, 7}, 1000) == 1000);  // Q = P: the server may take everything
  CHECK(server_interference({kMax, kMax}, kMax) == kMax);
  CHECK(server_interference({1, kMax}, kMax) == 2);          // no overflow in t + P − Q
  CHECK(server_interference({1, 2}, kMax) == kMax / 2 + 1);  // ⌈(t + 1)/2⌉, t odd
  CHECK_THROWS_AS(server_interference({0, 10}, 5), std::invalid_argument);
  CHECK_THROWS_AS(server_interference({11, 10}, 5), std::invalid_argument);
  CHECK_THROWS_AS(server_interference({1, 10}, -1), std::invalid_argument);
}

TEST_CASE("dag_response_with_server: the demo's job under Linux's server and a small one") {
  // C = 21 ms, L = 6 ms, m = 2, D = 20 ms: Graham 13.5 ms; with 1 ms every 1 s: 13.5 + 2·2 ms.
  const auto small = dag_response_with_server(21'000'000, 6'000'000, 2, 20'000'000,
                                              PeriodicServer{1'000'000, 1'000'000'000});
  REQUIRE(small.response_ns);
  CHECK(*small.response_ns == 17'500'000);
  // Linux's default 50 ms burst covers any window ≤ 50 ms: no bound below D = 20 ms.
  const auto linux_default = dag_response_with_server(21'000'000, 6'000'000, 2, 20'000'000,
                                                      PeriodicServer{50'000'000, 1'000'000'000});
  CHECK_FALSE(linux_default.response_ns);
  CHECK(linux_default.reason.find("exceeds D") != std::string::npos);
}

TEST_CASE("dag_response_with_server: a chain on one core, D at and below the bound") {
  // C = L = 10 on 1 core, Q = 5, P = 100: R = 10 + I(R) = 10 + 10 = 20 (two budgets back to back).
  const auto at = dag_response_with_server(10, 10, 1, 20, PeriodicServer{5, 100});
  REQUIRE(at.response_ns);
  CHECK(*at.response_ns == 20);
  CHECK_FALSE(dag_response_with_server(10, 10, 1, 19, PeriodicServer{5, 100}).response_ns);
  // m counts every core's server: the same chain on 3 cores waits on each in turn: 10 + 3·I(R).
  const auto three = dag_response_with_server(10, 10, 3, 1000, PeriodicServer{5, 100});
  REQUIRE(three.response_ns);
  CHECK(*three.response_ns == 10 + 3 * server_interference({5, 100}, *three.response_ns));
  CHECK_THROWS_AS(dag_response_with_server(5, 10, 1, 100, PeriodicServer{5, 100}),
                  std::invalid_argument);
}

TEST_CASE("dag_response_with_server: huge values stop at D, not overflow") {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const auto r = dag_response_with_server(kMax, 1, 1, kMax, PeriodicServer{kMax / 2, kMax});
  CHECK_FALSE(r.response_ns);
}

TEST_CASE("server_rta_tasks: the exact RTA with the server covers the jitter bound") {
  // One task C = 2, T = D = 10 under Q = 1, P = 100: jitter bound R = 2 + I(R) = 4; the two-task
  // model charges ⌈R/100⌉·1 + 1 = 2 as well.
  std::vector<RtaTask> core = {RtaTask{Duration(2), Duration(10), Duration(10), 50}};
  for (const RtaTask& t : server_rta_tasks({1, 100}, 10, 51)) core.push_back(t);
  const auto r = response_time(core, 0);
  REQUIRE(r);
  CHECK(r->count() == 4);
  // With Q = 5 the job cannot finish by 10: 2 + 10 > 10.
  std::vector<RtaTask> tight = {RtaTask{Duration(2), Duration(10), Duration(10), 50}};
  for (const RtaTask& t : server_rta_tasks({5, 100}, 10, 51)) tight.push_back(t);
  CHECK_FALSE(response_time(tight, 0));
}
