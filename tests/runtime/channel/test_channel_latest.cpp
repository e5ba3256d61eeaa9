// test_channel_latest.cpp — wait-freedom of the latest channel, both ways: readers keep completing
// reads of the last complete value while the writer is stalled mid-write, and the writer keeps
// completing writes while every reader is stalled mid-copy — with no torn value either way.
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <thread>
#include <vector>

#include <string>

#include "rtpar/channel.hpp"
#include "runtime/channel/test_channel_payload.hpp"

using rtpar::ChannelKind;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t kSize = sizeof(chtest::Matrix);
constexpr int kReaders = 3;

}  // namespace

TEST_CASE("channel latest: readers complete 10000 reads each while the writer is stalled") {
  // A 1 KB payload keeps 30000 reads quick under TSan, which checks every byte memcpy touches.
  constexpr std::size_t kSmall = 1024;
  auto channel = make_channel(chtest::config(ChannelKind::latest, kSmall, kReaders));
  std::vector<unsigned char> src(kSmall);
  chtest::fill(src.data(), kSmall, 1);
  channel->write(src.data());
  chtest::Gate stall;
  rtpar::detail::set_channel_hooks(
      *channel, {[](void* gate) { static_cast<chtest::Gate*>(gate)->pause(); }, nullptr, &stall});
  std::thread writer([&] {
    std::vector<unsigned char> value(kSmall);
    chtest::fill(value.data(), kSmall, 2);
    channel->write(value.data());  // stalls half-way through its copy
  });
  const bool stalled = stall.wait_arrival();
  CHECK(stalled);

  constexpr int kReads = 10000;
  std::array<int, kReaders> completed{};
  std::array<int, kReaders> wrong{};
  std::vector<std::thread> readers;
  readers.reserve(kReaders);
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back([&, r, reader = channel->reader(r)]() mutable {
      std::vector<unsigned char> dst(kSmall);
      const auto until = chtest::Clock::now() + 20s;  // a safety bound, far above the need
      for (int i = 0; i < kReads && chtest::Clock::now() < until; ++i) {
        const rtpar::ReadResult res = reader.read(dst.data());
        const bool right = res.ok && res.tries == 1 && res.sequence == 1 &&
                           chtest::decode(dst.data(), kSmall) == 1;
        wrong[static_cast<std::size_t>(r)] += right ? 0 : 1;
        ++completed[static_cast<std::size_t>(r)];
      }
    });
  }
  for (auto& t : readers) t.join();
  stall.let_through();
  writer.join();
  for (int r = 0; r < kReaders; ++r) {
    CHECK(completed[static_cast<std::size_t>(r)] == kReads);  // none waited for the writer
    CHECK(wrong[static_cast<std::size_t>(r)] == 0);           // all saw the last complete write
  }
  // Once the write completes, readers see it.
  auto reader = channel->reader(0);
  std::vector<unsigned char> dst(kSmall);
  const rtpar::ReadResult res = reader.read(dst.data());
  CHECK(res.sequence == 2);
  CHECK(chtest::decode(dst.data(), kSmall) == 2);
}

TEST_CASE("channel latest: the writer completes writes while every reader is paused mid-copy") {
  auto channel = make_channel(chtest::config(ChannelKind::latest, kSize, kReaders));
  struct Pauses {
    std::array<chtest::Gate, kReaders> gates;
    std::array<std::atomic<int>, kReaders> calls{};
    static void hook(void* self, int reader) {
      auto& p = *static_cast<Pauses*>(self);
      if (p.calls[static_cast<std::size_t>(reader)].fetch_add(1) == 0) {
        p.gates[static_cast<std::size_t>(reader)].pause();
      }
    }
  } pauses;
  rtpar::detail::set_channel_hooks(*channel, {nullptr, &Pauses::hook, &pauses});
  auto src = std::make_unique<chtest::Matrix>();
  std::array<rtpar::ReadResult, kReaders> results{};
  std::array<std::int64_t, kReaders> decoded{};
  std::vector<std::thread> readers;
  // Reader r starts after write r+1 and pauses half-way, pinning the buffer of write r+1: with
  // three readers paused, three of the five buffers are pinned.
  bool all_paused = true;
  for (int r = 0; r < kReaders; ++r) {
    chtest::fill(src.get(), kSize, static_cast<std::uint32_t>(r + 1));
    channel->write(src.get());
    readers.emplace_back([&, r, reader = channel->reader(r)]() mutable {
      auto dst = std::make_unique<chtest::Matrix>();
      results[static_cast<std::size_t>(r)] = reader.read(dst.get());
      decoded[static_cast<std::size_t>(r)] = chtest::decode(dst.get(), kSize);
    });
    const bool paused = pauses.gates[static_cast<std::size_t>(r)].wait_arrival();
    CHECK(paused);
    all_paused = all_paused && paused;
  }
  // The writer never waits for readers: 200 more writes complete while they are all paused.
  const auto start = chtest::Clock::now();
  for (std::uint32_t w = kReaders + 1; all_paused && w <= kReaders + 200; ++w) {
    chtest::fill(src.get(), kSize, w);
    channel->write(src.get());
  }
  CHECK(chtest::Clock::now() - start < 5s);
  for (auto& gate : pauses.gates) gate.let_through();
  for (auto& t : readers) t.join();
  for (int r = 0; r < kReaders; ++r) {
    const auto i = static_cast<std::size_t>(r);
    CHECK(results[i].ok);
    CHECK(results[i].sequence == static_cast<std::uint64_t>(r + 1));
    CHECK(decoded[i] == r + 1);  // the pinned buffer was never overwritten
  }
}
