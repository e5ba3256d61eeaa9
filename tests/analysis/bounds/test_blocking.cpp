// test_blocking.cpp — the priority-ceiling blocking term and the RTA that charges it
// (src/analysis/bounds/blocking.hpp), on hand-worked examples.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analysis/bounds/blocking.hpp"

using namespace std::chrono_literals;
using rtpar::Duration;
using rtpar::analysis::blocked_response_time;
using rtpar::analysis::LocalLock;
using rtpar::analysis::pcp_blocking;
using rtpar::analysis::RtaStatus;
using rtpar::analysis::RtaTask;

namespace {

constexpr std::int64_t blk_ms(std::int64_t n) { return n * 1'000'000; }

}  // namespace

TEST_CASE("blocking: a lower-priority user's critical section blocks the top task once") {
  // hi (priority 20) and lo (priority 10) share one lock of hold 5 ms: ceiling 20.
  const std::vector<LocalLock> locks{{blk_ms(5), 20, {20, 10}}};
  CHECK(pcp_blocking(20, locks).ns == blk_ms(5));
  CHECK(pcp_blocking(20, locks).lock == 0U);
  CHECK(pcp_blocking(10, locks).ns == 0);  // the lowest user: only higher users, no blocking
  CHECK_FALSE(pcp_blocking(10, locks).lock.has_value());
  CHECK(pcp_blocking(21, locks).ns == 0);  // above the ceiling: never blocked
  // A non-user between the users is blocked too: lo runs at the ceiling 20 > 15 while holding.
  CHECK(pcp_blocking(15, locks).ns == blk_ms(5));
}

TEST_CASE("blocking: boundaries (single user, ceiling below, higher users only, the largest)") {
  // A lock used by one task only: it blocks nobody (ceiling 10 < 20; no user below 10).
  const std::vector<LocalLock> alone{{blk_ms(5), 10, {10}}};
  CHECK(pcp_blocking(20, alone).ns == 0);
  CHECK(pcp_blocking(10, alone).ns == 0);
  CHECK(pcp_blocking(5, alone).ns == 0);
  // Ceiling below prio(i): users 10 and 5 never run above 10, so a task of priority 15 is not
  // blocked, but one of priority 8 (a non-user) is.
  const std::vector<LocalLock> low{{blk_ms(3), 10, {10, 5}}};
  CHECK(pcp_blocking(15, low).ns == 0);
  CHECK(pcp_blocking(8, low).ns == blk_ms(3));
  // Equal priorities interfere (SCHED_FIFO), they do not block.
  CHECK(pcp_blocking(10, std::vector<LocalLock>{{blk_ms(3), 10, {10, 10}}}).ns == 0);
  // Several locks: the longest qualifying critical section (one blocking only, Sha et al. §IV).
  const std::vector<LocalLock> two{
      {blk_ms(3), 20, {20, 1}}, {blk_ms(7), 30, {30, 2}}, {blk_ms(9), 12, {12, 1}}};
  CHECK(pcp_blocking(20, two).ns == blk_ms(7));
  CHECK(pcp_blocking(20, two).lock == 1U);
  CHECK(pcp_blocking(5, two).ns == blk_ms(9));
  CHECK_THROWS_AS((void)pcp_blocking(5, std::vector<LocalLock>{{0, 5, {5, 1}}}),
                  std::invalid_argument);
}

TEST_CASE("blocking: R(hi) = 2 ms + hold(lo) = 7 ms on one core (issue 32's example)") {
  // hi: C = 2 ms, T = D = 10 ms, priority 20; lo: C = 50 ms, T = D = 100 ms, priority 10.
  const std::vector<RtaTask> core{{Duration(blk_ms(2)), 10ms, 10ms, 20},
                                  {Duration(blk_ms(50)), 100ms, 100ms, 10}};
  const auto hi = blocked_response_time(core, 0, blk_ms(5));
  REQUIRE(hi.status == RtaStatus::met);
  CHECK(hi.response == Duration(blk_ms(7)));
  // Without blocking, the plain RTA: 2 ms.
  CHECK(blocked_response_time(core, 0, 0).response == Duration(blk_ms(2)));
  // lo is not blocked: R = 50 + 2·⌈R/10⌉ → 60 → 62 → 64 → 64 ms.
  const auto lo = blocked_response_time(core, 1, 0);
  REQUIRE(lo.status == RtaStatus::met);
  CHECK(lo.response == Duration(blk_ms(64)));
  // Blocking up to D − C exactly still meets the deadline; one nanosecond more misses.
  CHECK(blocked_response_time(core, 0, blk_ms(8)).response == Duration(blk_ms(10)));
  CHECK(blocked_response_time(core, 0, blk_ms(8) + 1).status == RtaStatus::missed);
}

TEST_CASE("blocking: a middle task is blocked and preempted (three tasks, by hand)") {
  // hi (1 ms / 4 ms, prio 3) and lo (3 ms / 20 ms, prio 1) share a lock of hold 2 ms (ceiling 3);
  // mid (1 ms / 6 ms, prio 2) uses no lock but is blocked by lo running at the ceiling.
  const std::vector<RtaTask> core{{Duration(blk_ms(1)), 4ms, 4ms, 3},
                                  {Duration(blk_ms(1)), 6ms, 6ms, 2},
                                  {Duration(blk_ms(3)), 20ms, 20ms, 1}};
  const std::vector<LocalLock> locks{{blk_ms(2), 3, {3, 1}}};
  CHECK(pcp_blocking(3, locks).ns == blk_ms(2));
  CHECK(pcp_blocking(2, locks).ns == blk_ms(2));
  CHECK(pcp_blocking(1, locks).ns == 0);
  // hi: 1 + 2 = 3 ms. mid: R = 1 + 2 + ⌈R/4⌉·1 → 4 → 4 ms. lo: R = 3 + ⌈R/4⌉ + ⌈R/6⌉ → 5 → 6 → 6.
  CHECK(blocked_response_time(core, 0, blk_ms(2)).response == Duration(blk_ms(3)));
  CHECK(blocked_response_time(core, 1, blk_ms(2)).response == Duration(blk_ms(4)));
  CHECK(blocked_response_time(core, 2, 0).response == Duration(blk_ms(6)));
}

TEST_CASE("blocking: exact arithmetic at the top of the range") {
  const Duration big(std::numeric_limits<std::int64_t>::max() - 1);
  const std::vector<RtaTask> core{{big, big, big, 1}};
  CHECK(blocked_response_time(core, 0, 0).status == RtaStatus::met);
  CHECK(blocked_response_time(core, 0, 5).status == RtaStatus::missed);  // C + B overflows
  CHECK_THROWS_AS((void)blocked_response_time(core, 0, -1), std::invalid_argument);
  CHECK_THROWS_AS((void)blocked_response_time(core, 1, 0), std::invalid_argument);
}
