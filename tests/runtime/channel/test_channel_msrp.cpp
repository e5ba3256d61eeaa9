// test_channel_msrp.cpp — the lock channel's MSRP protocol (runtime/channel/lock.cpp): mutual
// exclusion with spinning waiters, FIFO service of requests, the non-preemptive priority while
// requesting and holding, and the per-user records (holds, waits, overruns of the declared hold).
#include <doctest/doctest.h>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rtpar/channel.hpp"
#include "runtime/channel/sched_probe.hpp"
#include "runtime/channel/test_channel_payload.hpp"
#include "support/skip.hpp"

using rtpar::ChannelKind;
using namespace std::chrono_literals;

namespace {

// msrp_config is a two-reader MSRP lock channel whose users are tasks 3 (writer), 7 and 9.
rtpar::ChannelConfig msrp_config(std::int64_t declared_hold_ns = 0, int priority = 0) {
  auto c = chtest::config(ChannelKind::lock, 64, 2);
  c.name = "shared";
  c.protocol = rtpar::LockProtocol::msrp;
  c.nonpreemptive_priority = priority;
  c.declared_hold_ns = declared_hold_ns;
  c.user_tasks = {3, 7, 9};
  return c;
}

}  // namespace

TEST_CASE("channel msrp: spinning waiters exclude each other and every access is recorded") {
  auto channel = make_channel(msrp_config());
  auto r0 = channel->reader(0);
  auto r1 = channel->reader(1);
  constexpr int kRounds = 2000;
  std::int64_t inside = 0;  // plain: the lock alone orders it (TSan checks the claim)
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    unsigned char buffer[64] = {};
    for (int k = 0; k < kRounds; ++k) {
      channel->write(buffer);
      rtpar::set_channel_user(3);
      rtpar::ChannelHold hold(*channel);
      ++inside;
    }
  });
  threads.emplace_back([&] {
    unsigned char buffer[64] = {};
    rtpar::set_channel_user(7);
    for (int k = 0; k < kRounds; ++k) {
      r0.read(buffer);
      rtpar::ChannelHold hold(*channel);
      ++inside;
    }
  });
  threads.emplace_back([&] {
    unsigned char buffer[64] = {};
    for (int k = 0; k < kRounds; ++k) {
      r1.read(buffer);
      rtpar::set_channel_user(-1);
      rtpar::ChannelHold hold(*channel);  // nobody's: the unattributed slot
      ++inside;
    }
  });
  for (std::thread& t : threads) t.join();
  CHECK(inside == 3 * kRounds);
  const std::vector<rtpar::LockUserStats> stats = channel->lock_stats();
  REQUIRE(stats.size() == 4);
  CHECK(stats[0].task == 3);
  CHECK(stats[0].acquisitions == 2 * kRounds);  // writes and holds as task 3
  CHECK(stats[1].task == 7);
  CHECK(stats[1].acquisitions == 2 * kRounds);  // reads (reader 0) and holds as task 7
  CHECK(stats[2].task == 9);
  CHECK(stats[2].acquisitions == kRounds);  // reads by reader 1
  CHECK(stats[3].task == -1);
  CHECK(stats[3].acquisitions == kRounds);  // the anonymous holds
  for (const rtpar::LockUserStats& s : stats) {
    CHECK(s.max_hold_ns >= 0);
    CHECK(s.hold_overruns == 0);  // nothing declared
  }
}

TEST_CASE("channel msrp: requests are served in FIFO order and a long hold is an overrun") {
  auto channel = make_channel(msrp_config(/*declared_hold_ns=*/1'000'000));
  std::mutex order_mutex;
  std::vector<int> order;
  std::atomic<int> requested{0};
  std::thread first;
  std::thread second;
  {
    rtpar::set_channel_user(3);
    rtpar::ChannelHold hold(*channel);
    // Two waiters request one after the other while the lock is held (50 ms apart: the second
    // certainly takes its ticket after the first).
    first = std::thread([&] {
      requested.fetch_add(1);
      rtpar::set_channel_user(7);
      rtpar::ChannelHold h(*channel);
      std::lock_guard<std::mutex> g(order_mutex);
      order.push_back(1);
    });
    while (requested.load() < 1) std::this_thread::yield();
    std::this_thread::sleep_for(50ms);
    second = std::thread([&] {
      requested.fetch_add(1);
      rtpar::set_channel_user(9);
      rtpar::ChannelHold h(*channel);
      std::lock_guard<std::mutex> g(order_mutex);
      order.push_back(2);
    });
    while (requested.load() < 2) std::this_thread::yield();
    std::this_thread::sleep_for(50ms);  // held ≥ 100 ms: far above the declared 1 ms
  }
  first.join();
  second.join();
  CHECK(order == std::vector<int>{1, 2});
  const std::vector<rtpar::LockUserStats> stats = channel->lock_stats();
  CHECK(stats[0].hold_overruns == 1);
  CHECK(stats[0].max_hold_ns >= 100'000'000);
  CHECK(stats[1].max_wait_ns >= 50'000'000);  // waited for the whole hold
  CHECK(stats[2].max_wait_ns > 0);
}

TEST_CASE("channel msrp: a request runs at the non-preemptive priority until the release") {
  auto channel = make_channel(msrp_config(0, /*priority=*/60));
  int before = -1;
  int holding = -1;
  int nested = -1;
  int after = -1;
  auto inner = make_channel([] {
    auto c = msrp_config(0, 60);
    c.name = "inner";
    return c;
  }());
  const bool ran = chtest::run_fifo(10, [&] {
    before = chtest::kernel_priority();
    {
      rtpar::ChannelHold hold(*channel);
      holding = chtest::kernel_priority();
      {
        rtpar::ChannelHold second(*inner);  // nested msrp sections: one raise, one restore
      }
      nested = chtest::kernel_priority();
    }
    after = chtest::kernel_priority();
  });
  if (!ran) {
    RTPAR_SKIP("SCHED_FIFO refused (run as root or with CAP_SYS_NICE)");
  }
  CHECK(before == 10);
  CHECK(holding == 60);
  CHECK(nested == 60);  // still inside the outer section
  CHECK(after == 10);
}
