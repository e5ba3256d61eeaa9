// futex.cpp — see futex.hpp. Private futexes: the words never leave this process.
#include "platform/futex.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>

namespace rtpar::detail {

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t),
              "futex needs a plain 32-bit word");

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

void futex_wait_until(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                      std::int64_t deadline_ns) noexcept {
  // FUTEX_WAIT_BITSET takes an absolute timeout on CLOCK_MONOTONIC (plain FUTEX_WAIT's is
  // relative), so a release time computed as t0 + k·T never drifts.
  timespec ts{static_cast<time_t>(deadline_ns / 1'000'000'000),
              static_cast<long>(deadline_ns % 1'000'000'000)};
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_BITSET_PRIVATE, expected,
          &ts, nullptr, FUTEX_BITSET_MATCH_ANY);
}

void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, count, nullptr,
          nullptr, 0);
}

void sleep_until(std::int64_t when) noexcept {
  timespec ts{static_cast<time_t>(when / 1'000'000'000), static_cast<long>(when % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

}  // namespace rtpar::detail
