// test_checked_math.cpp — checked_* report overflow as nullopt, sat_* clamp, both exact otherwise.
#include <doctest/doctest.h>

#include <cstdint>

#include "core/checked_math.hpp"

using rtpar::checked_add;
using rtpar::checked_mul;
using rtpar::checked_narrow;
using rtpar::checked_sub;
using rtpar::kInt64Max;
using rtpar::kInt64Min;
using rtpar::sat_add;
using rtpar::sat_mul;
using rtpar::sat_narrow;

TEST_CASE("checked_add / checked_sub: exact in range, nullopt past either end") {
  CHECK(checked_add(3, 4) == 7);
  CHECK(checked_add(kInt64Max - 1, 1) == kInt64Max);
  CHECK_FALSE(checked_add(kInt64Max, 1).has_value());
  CHECK_FALSE(checked_add(kInt64Min, -1).has_value());
  CHECK(checked_sub(0, kInt64Max) == -kInt64Max);
  CHECK_FALSE(checked_sub(kInt64Min, 1).has_value());
  CHECK_FALSE(checked_sub(0, kInt64Min).has_value());
}

TEST_CASE("checked_mul: the issue's count * length + overhead with a 2^63-1 profile overflows") {
  CHECK(checked_mul(4, 1'000'000) == 4'000'000);
  CHECK(checked_mul(-3, 5) == -15);
  CHECK_FALSE(checked_mul(kInt64Max, 2).has_value());
  CHECK_FALSE(checked_mul(kInt64Min, -1).has_value());
  const auto product = checked_mul(2, 1'000'000);
  REQUIRE(product.has_value());
  CHECK_FALSE(checked_add(*product, kInt64Max).has_value());
}

TEST_CASE("sat_add / sat_mul: clamp to INT64_MAX for non-negative arguments, INT64_MIN below") {
  CHECK(sat_add(kInt64Max, kInt64Max) == kInt64Max);
  CHECK(sat_add(kInt64Max, -1) == kInt64Max - 1);
  CHECK(sat_add(kInt64Min, -5) == kInt64Min);
  CHECK(sat_mul(kInt64Max, kInt64Max) == kInt64Max);
  CHECK(sat_mul(kInt64Max, -2) == kInt64Min);
  CHECK(sat_mul(0, kInt64Max) == 0);
  CHECK(sat_mul(1'000, 1'000) == 1'000'000);
  static_assert(sat_add(kInt64Max, 1) == kInt64Max, "usable in constant expressions");
}

TEST_CASE("checked_narrow / sat_narrow: __int128 back to int64") {
  const __int128 big = static_cast<__int128>(kInt64Max) + 1;
  CHECK_FALSE(checked_narrow(big).has_value());
  CHECK(checked_narrow(static_cast<__int128>(kInt64Min)) == kInt64Min);
  CHECK(sat_narrow(big) == kInt64Max);
  CHECK(sat_narrow(-big - 1) == kInt64Min);
  CHECK(sat_narrow(42) == 42);
}

TEST_CASE("ceil_div: exact for every non-negative numerator, even near the top of __int128") {
  CHECK(rtpar::ceil_div(0, 5) == 0);
  CHECK(rtpar::ceil_div(10, 5) == 2);
  CHECK(rtpar::ceil_div(11, 5) == 3);
  const __int128 top = ~(static_cast<__int128>(1) << 127);  // 2^127 − 1: a + b − 1 would overflow
  CHECK(rtpar::ceil_div(top, 2) == (top >> 1) + 1);
  CHECK(rtpar::ceil_div(rtpar::kInt64Max, rtpar::kInt64Max) == 1);
}
