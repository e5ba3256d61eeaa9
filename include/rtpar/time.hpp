// rtpar/time.hpp — durations and the monotonic clock used everywhere in rtpar.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace rtpar {

// Duration is rtpar's time quantity: signed 64-bit nanoseconds (±292 years), exact for analysis.
using Duration = std::chrono::nanoseconds;

// parse_duration parses "10ms", "250us", "1.5s", "800ns", "2min" (units ns, us, ms, s, min).
// The number may be a decimal fraction; the result is rounded to the nearest nanosecond and must
// be representable. Throws std::invalid_argument with a message naming the problem (no unit,
// unknown unit, NaN, negative, overflow). Zero is accepted here; callers decide whether zero is
// allowed.
Duration parse_duration(std::string_view text);

// duration_from_micros reads a count of microseconds (the generators' `--param` rule for a bare
// number; a task-set file refuses bare numbers other than 0, docs/taskset.md). Throws std::invalid_argument when it is negative or does not fit
// 64-bit nanoseconds.
Duration duration_from_micros(std::int64_t us);

// format_duration renders d in the largest unit not exceeding it, e.g. "1.5ms", "20ms", "800ns".
// By default the text is exact (it parses back to d: "12.020867ms"); with max_decimals ≥ 0 the
// fraction is rounded half up to that many places for display ("12.021ms" with 3).
std::string format_duration(Duration d, int max_decimals = -1);

// monotonic_now reads CLOCK_MONOTONIC in nanoseconds since boot (the clock releases use).
std::int64_t monotonic_now() noexcept;

// thread_cpu_now reads CLOCK_THREAD_CPUTIME_ID: CPU time consumed by the calling thread, in ns.
std::int64_t thread_cpu_now() noexcept;

}  // namespace rtpar
