// test_msrp.cpp — MSRP's section and spin terms (analysis/bounds/msrp.hpp), by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>

#include "analysis/bounds/msrp.hpp"

using rtpar::analysis::msrp_section;
using rtpar::analysis::msrp_spin;
using rtpar::analysis::PeriodicServer;

TEST_CASE("msrp: without a server a section is its hold; the spin is others × section") {
  CHECK(msrp_section(5'000'000, std::nullopt, 10'000'000) == 5'000'000);
  CHECK(msrp_section(5'000'000, std::nullopt, 4'000'000) == std::nullopt);  // past the limit
  CHECK(msrp_spin(0, 5'000'000) == 0);
  CHECK(msrp_spin(3, 5'000'000) == 15'000'000);
  CHECK(msrp_spin(std::numeric_limits<std::int64_t>::max() / 2, 3) == std::nullopt);  // overflow
  CHECK_THROWS_AS(msrp_spin(-1, 1), std::invalid_argument);
  CHECK_THROWS_AS(msrp_section(0, std::nullopt, 1), std::invalid_argument);
}

TEST_CASE("msrp: a charged server stretches a section to the least x = hold + I(x)") {
  // Q = 1 ms every P = 10 ms, deferred: I(t) = min(t, Q·⌈(t + P − Q)/P⌉).
  // hold 2 ms: I(2) = min(2, 1·⌈11/10⌉) = 2 → x = 4; I(4) = min(4, ⌈13/10⌉) = 2 → x = 4. Fixed.
  PeriodicServer server;
  server.budget_ns = 1'000'000;
  server.period_ns = 10'000'000;
  CHECK(msrp_section(2'000'000, server, 100'000'000) == 4'000'000);
  // hold 12 ms: I(12) = min(12, ⌈21/10⌉ = 3) → 15; I(15) = min(15, ⌈24/10⌉ = 3) → 15. Fixed.
  CHECK(msrp_section(12'000'000, server, 100'000'000) == 15'000'000);
  // A server that takes everything (Q = P) leaves no fixed point: unbounded, nullopt.
  server.budget_ns = server.period_ns;
  CHECK(msrp_section(1'000'000, server, 100'000'000) == std::nullopt);
}
