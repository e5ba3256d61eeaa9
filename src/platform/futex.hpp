// futex.hpp — thin wrappers over the Linux futex system call on a 32-bit atomic word.
//
// No atomic operation here: the kernel's compare of the word with `expected` (under its hash-bucket
// lock) only decides whether to sleep, and orders nothing in the C++ sense. Every caller loads the
// word with its own protocol's order after a wait returns, and a store that lands between that
// load and the sleep makes the compare fail, so the wait returns at once (no lost wake-up).
#pragma once

#include <atomic>
#include <cstdint>

namespace rtpar::detail {

// futex_wait sleeps while *word == expected (returns at once otherwise, or on a spurious wake-up).
// Callers always re-check their condition in a loop.
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) noexcept;

// futex_wait_until is futex_wait with an absolute CLOCK_MONOTONIC deadline (ns); it returns at
// the deadline, on a wake-up, or at once if *word != expected.
void futex_wait_until(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                      std::int64_t deadline_ns) noexcept;

// futex_wake wakes up to `count` threads sleeping on word (INT32_MAX for all).
void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept;

// sleep_until sleeps the calling thread until the absolute CLOCK_MONOTONIC time `when` (ns),
// whatever happens meanwhile (clock_nanosleep TIMER_ABSTIME, restarted after signals). Beside the
// futex waits because it is the other absolute-time sleep every layer above uses.
void sleep_until(std::int64_t when) noexcept;

}  // namespace rtpar::detail
