// clock.cpp — the two clocks rtpar reads: CLOCK_MONOTONIC for releases and records, and the
// thread CPU-time clock for kernels that must consume a given amount of work despite preemption.
#include <ctime>

#include "rtpar/time.hpp"

namespace rtpar {

namespace {
std::int64_t read(clockid_t id) noexcept {
  timespec ts{};
  clock_gettime(id, &ts);  // vDSO for CLOCK_MONOTONIC: no system call on the fast path
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
}  // namespace

std::int64_t monotonic_now() noexcept { return read(CLOCK_MONOTONIC); }

std::int64_t thread_cpu_now() noexcept { return read(CLOCK_THREAD_CPUTIME_ID); }

}  // namespace rtpar
