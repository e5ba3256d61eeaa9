// test_channel_double_buffer.cpp — the paper's double buffer (OpenMP-RT §3.5.2) and its flaw:
// a reader lapped twice by the writer during one copy returns a torn value and cannot tell. The
// same schedule is caught by retry and harmless for latest. Deterministic: a mid-read hook pauses
// the reader between the two halves of its copy while the test writes.
#include <doctest/doctest.h>

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
constexpr std::size_t kWords = kSize / 4;

// Lapped is what one read saw when `writes` writes happened while it was paused mid-copy.
struct Lapped {
  rtpar::ReadResult result;
  std::int64_t decoded = 0;       // decode() of the copy: the write it came from, or -1 if torn
  std::uint32_t first_half = 0;   // write named by the first payload word
  std::uint32_t second_half = 0;  // write named by the last data word
};

// lap writes write 1, starts a read, pauses it after half of the copy, makes `writes` more writes,
// then lets the read finish.
Lapped lap(ChannelKind kind, int writes) {
  auto channel = make_channel(chtest::config(kind, kSize, 1, 1));
  struct Pause {
    chtest::Gate gate;
    std::atomic<int> calls{0};
    static void hook(void* self, int) {
      auto& p = *static_cast<Pause*>(self);
      if (p.calls.fetch_add(1) == 0) p.gate.pause();
    }
  } pause;
  rtpar::detail::set_channel_hooks(*channel, {nullptr, &Pause::hook, &pause});
  auto src = std::make_unique<chtest::Matrix>();
  chtest::fill(src.get(), kSize, 1);
  channel->write(src.get());
  auto dst = std::make_unique<chtest::Matrix>();
  Lapped out;
  std::thread reading(
      [&, reader = channel->reader(0)]() mutable { out.result = reader.read(dst.get()); });
  const bool arrived = pause.gate.wait_arrival();
  CHECK(arrived);
  for (int w = 2; arrived && w < 2 + writes; ++w) {
    chtest::fill(src.get(), kSize, static_cast<std::uint32_t>(w));
    channel->write(src.get());
  }
  pause.gate.let_through();
  reading.join();
  out.decoded = chtest::decode(dst.get(), kSize);
  out.first_half = chtest::word_seq(dst.get(), 0);
  out.second_half = chtest::word_seq(dst.get(), kWords - 2);
  return out;
}

}  // namespace

TEST_CASE("channel double_buffer: a reader lapped twice mid-copy gets a torn value, reported ok") {
  const Lapped l = lap(ChannelKind::double_buffer, 2);
  CHECK(l.result.ok);  // the protocol cannot tell
  CHECK(l.result.sequence == 1);
  CHECK(l.decoded == -1);  // torn: the checksum fails
  CHECK(l.first_half == 1);
  CHECK(l.second_half == 3);  // write 3 went into the buffer being copied
}

TEST_CASE("channel double_buffer: one write during a copy goes to the other buffer, no tear") {
  const Lapped l = lap(ChannelKind::double_buffer, 1);
  CHECK(l.result.ok);
  CHECK(l.decoded == 1);
}

TEST_CASE(
    "channel: the schedule that tears double_buffer is caught by retry, harmless for latest") {
  const Lapped retry = lap(ChannelKind::retry, 2);  // numtries = 1
  CHECK_FALSE(retry.result.ok);
  CHECK(retry.result.tries == 1);
  const Lapped latest = lap(ChannelKind::latest, 2);
  CHECK(latest.result.ok);
  CHECK(latest.result.sequence == 1);
  CHECK(latest.decoded == 1);  // the reader's buffer was pinned; the writer used the others
}

TEST_CASE("channel double_buffer: a slow reader and a fast writer tear within bounded attempts") {
  // No pause gate here: the reader just sleeps between the halves of its copy (a preempted
  // reader) while the writer writes as fast as it can. Bounded by attempts and time.
  auto channel = make_channel(chtest::config(ChannelKind::double_buffer, kSize, 1));
  rtpar::detail::set_channel_hooks(
      *channel, {nullptr, [](void*, int) { std::this_thread::sleep_for(200us); }, nullptr});
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    auto src = std::make_unique<chtest::Matrix>();
    const auto until = chtest::Clock::now() + 3s;
    for (std::uint32_t w = 1; !stop.load() && chtest::Clock::now() < until; ++w) {
      chtest::fill(src.get(), kSize, w);
      channel->write(src.get());
    }
  });
  auto reader = channel->reader(0);
  auto dst = std::make_unique<chtest::Matrix>();
  int attempts = 0;
  bool torn = false;
  const auto until = chtest::Clock::now() + 2s;
  while (!torn && attempts < 1000 && chtest::Clock::now() < until) {
    ++attempts;
    const rtpar::ReadResult r = reader.read(dst.get());
    CHECK(r.ok);
    torn = chtest::decode(dst.get(), kSize) == -1;
  }
  stop = true;
  writer.join();
  CHECK_MESSAGE(torn, "no torn read in ", attempts, " attempts");
}
