// checked_math.hpp — the one place for overflow-aware int64 arithmetic in rtpar. Bounds in
// src/analysis (and the simulator's clock) add and multiply nanosecond counts that come straight
// from user files (periods up to 2^63−1 ns, profile costs, segment counts); a wrapped sum would be a
// small number and could admit an unschedulable task. Two families:
//   - checked_*: std::nullopt when the exact result does not fit in int64 (the caller turns that
//     into "not schedulable: bound overflows" or a clear error);
//   - sat_*: the exact result clamped to [INT64_MIN, INT64_MAX]. For non-negative arguments the only
//     clamp is to INT64_MAX, which every comparison against a deadline reads as "too long" — use
//     these where "infinitely long" is the safe reading (horizons, demands, response times).
// All are constexpr and built on __builtin_*_overflow (GCC and Clang), so they are exact and never
// undefined behaviour.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace rtpar {

// kInt64Max is the saturation ceiling of sat_add / sat_mul / sat_narrow.
inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
// kInt64Min is the saturation floor of the same functions (reached only with negative arguments).
inline constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

// checked_add returns a + b, or std::nullopt when the exact sum does not fit in int64.
constexpr std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// checked_sub returns a − b, or std::nullopt when the exact difference does not fit in int64.
constexpr std::optional<std::int64_t> checked_sub(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// checked_mul returns a · b, or std::nullopt when the exact product does not fit in int64.
constexpr std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// checked_narrow returns v as int64, or std::nullopt when it is outside int64's range: the exit of
// a computation done exactly in __int128.
constexpr std::optional<std::int64_t> checked_narrow(__int128 v) {
  if (v > kInt64Max || v < kInt64Min) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

// sat_narrow returns v clamped to int64's range.
constexpr std::int64_t sat_narrow(__int128 v) {
  if (v > kInt64Max) return kInt64Max;
  if (v < kInt64Min) return kInt64Min;
  return static_cast<std::int64_t>(v);
}

// sat_add returns a + b clamped to int64's range: INT64_MAX when two non-negative values overflow.
constexpr std::int64_t sat_add(std::int64_t a, std::int64_t b) {
  return sat_narrow(static_cast<__int128>(a) + b);
}

// sat_mul returns a · b clamped to int64's range: INT64_MAX when two non-negative values overflow.
// (The exact product of two int64 values always fits in __int128.)
constexpr std::int64_t sat_mul(std::int64_t a, std::int64_t b) {
  return sat_narrow(static_cast<__int128>(a) * b);
}

// ceil_div is ⌈a / b⌉ for a ≥ 0 and b > 0, exact in __int128 (written without a + b − 1, so it
// holds for every such a and b). The one ceiling of the analyses: core counts, ⌈(Δ + J)/T⌉ release
// counts, rounded-up utilization terms.
constexpr __int128 ceil_div(__int128 a, __int128 b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace rtpar
