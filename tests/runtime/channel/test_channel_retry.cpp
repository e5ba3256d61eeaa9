// test_channel_retry.cpp — the retry channel's bound and failure reporting (OpenMP-RT §3.5.1,
// §5.4): at most numtries attempts, failures reported with the flag, a stalled writer never
// blocks readers, an overtaken attempt is retried, and a failed read leaves its last attempt.
#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include <string>

#include "rtpar/channel.hpp"
#include "runtime/channel/test_channel_payload.hpp"

using rtpar::ChannelKind;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t kSize = 4096;

// words_whole checks that every aligned 8-byte word of a payload comes from one write (both of its
// 32-bit halves name the same write, or it is still the initial zero) and that no word names a
// write after `max_seq`.
bool words_whole(const std::vector<unsigned char>& p, std::uint32_t max_seq) {
  for (std::size_t i = 0; i + 2 < p.size() / 4; i += 2) {
    std::uint64_t word;
    std::memcpy(&word, p.data() + 4 * i, 8);
    if (word == 0) continue;
    if (chtest::word_seq(p.data(), i) != chtest::word_seq(p.data(), i + 1)) return false;
    if (chtest::word_seq(p.data(), i) > max_seq) return false;
  }
  return true;
}

// Overtake is a mid_read hook: it waits (bounded) until the writer completes another write, so
// the attempt in progress is always overtaken.
struct Overtake {
  std::atomic<long> completed{0};
  std::atomic<bool> timed_out{false};
  static void hook(void* self, int) {
    auto& o = *static_cast<Overtake*>(self);
    const long seen = o.completed.load();
    const auto until = chtest::Clock::now() + 1s;
    while (o.completed.load() == seen) {
      if (chtest::Clock::now() > until) {
        o.timed_out = true;
        return;
      }
      std::this_thread::yield();
    }
  }
};

}  // namespace

TEST_CASE("channel retry: against a continuous writer, reads fail after exactly numtries tries") {
  for (int numtries : {1, 2, 3}) {
    auto channel = make_channel(chtest::config(ChannelKind::retry, kSize, 1, numtries));
    Overtake overtake;
    rtpar::detail::set_channel_hooks(*channel, {nullptr, &Overtake::hook, &overtake});
    auto reader = channel->reader(0);
    std::atomic<bool> stop{false};
    std::thread writer([&] {
      std::vector<unsigned char> src(kSize);
      const auto until = chtest::Clock::now() + 3s;
      for (std::uint32_t w = 1; w < 1'000'000 && !stop.load() && chtest::Clock::now() < until;
           ++w) {
        chtest::fill(src.data(), kSize, w);
        channel->write(src.data());
        overtake.completed.store(w);
      }
    });
    std::vector<unsigned char> dst(kSize);
    int failures = 0;
    for (int i = 0; i < 20; ++i) {
      const rtpar::ReadResult r = reader.read(dst.data());
      CHECK(r.tries == numtries);
      failures += r.ok ? 0 : 1;
      // A failed read leaves its last attempt: whole 8-byte words, each from some write.
      CHECK(words_whole(dst, static_cast<std::uint32_t>(overtake.completed.load()) + 1));
    }
    stop = true;
    writer.join();
    CHECK_FALSE(overtake.timed_out.load());
    CHECK_MESSAGE(failures == 20, "numtries=", numtries);
    // Writer gone: the flag clears on the first try.
    rtpar::detail::set_channel_hooks(*channel, {});
    const rtpar::ReadResult r = reader.read(dst.data());
    CHECK(r.ok);
    CHECK(r.tries == 1);
    CHECK(chtest::decode(dst.data(), kSize) == static_cast<std::int64_t>(r.sequence));
  }
}

TEST_CASE("channel retry: a writer stalled mid-write makes reads fail fast, never block") {
  auto channel = make_channel(chtest::config(ChannelKind::retry, kSize, 2, 3));
  struct Stall {
    chtest::Gate gate;
    std::atomic<int> writes{0};
    static void hook(void* self) {
      auto& s = *static_cast<Stall*>(self);
      if (s.writes.fetch_add(1) == 1) s.gate.pause();  // stall the second write only
    }
  } stall;
  rtpar::detail::set_channel_hooks(*channel, {&Stall::hook, nullptr, &stall});
  auto reader = channel->reader(1);
  std::thread writer([&] {
    std::vector<unsigned char> src(kSize);
    for (std::uint32_t w = 1; w <= 2; ++w) {
      chtest::fill(src.data(), kSize, w);
      channel->write(src.data());
    }
  });
  const bool arrived = stall.gate.wait_arrival();
  CHECK(arrived);
  std::vector<unsigned char> dst(kSize);
  int bad = 0;
  for (int i = 0; arrived && i < 1000; ++i) {
    const rtpar::ReadResult r = reader.read(dst.data());
    bad += (r.ok || r.tries != 3 || r.sequence != 1) ? 1 : 0;
  }
  CHECK(bad == 0);
  stall.gate.let_through();
  writer.join();
  const rtpar::ReadResult r = reader.read(dst.data());
  CHECK(r.ok);
  CHECK(r.sequence == 2);
  CHECK(chtest::decode(dst.data(), kSize) == 2);
}

TEST_CASE("channel retry: an overtaken attempt is retried; with numtries 1 the torn copy is kept") {
  for (int numtries : {1, 2}) {
    auto channel = make_channel(chtest::config(ChannelKind::retry, kSize, 1, numtries));
    struct Pause {
      chtest::Gate gate;
      std::atomic<int> calls{0};
      static void hook(void* self, int) {
        auto& p = *static_cast<Pause*>(self);
        if (p.calls.fetch_add(1) == 0) p.gate.pause();  // pause the first attempt only
      }
    } pause;
    rtpar::detail::set_channel_hooks(*channel, {nullptr, &Pause::hook, &pause});
    std::vector<unsigned char> src(kSize);
    chtest::fill(src.data(), kSize, 1);
    channel->write(src.data());
    std::vector<unsigned char> dst(kSize);
    rtpar::ReadResult r;
    std::thread reading(
        [&, reader = channel->reader(0)]() mutable { r = reader.read(dst.data()); });
    const bool arrived = pause.gate.wait_arrival();  // the reader has copied half of write 1
    CHECK(arrived);
    chtest::fill(src.data(), kSize, 2);
    if (arrived) channel->write(src.data());
    pause.gate.let_through();
    reading.join();
    CHECK(r.tries == numtries);
    if (numtries == 1) {
      CHECK_FALSE(r.ok);
      CHECK(r.sequence == 1);
      CHECK(chtest::word_seq(dst.data(), 0) == 1);              // first half: write 1
      CHECK(chtest::word_seq(dst.data(), kSize / 4 - 2) == 2);  // second half: write 2
      CHECK(chtest::decode(dst.data(), kSize) == -1);
    } else {
      CHECK(r.ok);
      CHECK(r.sequence == 2);
      CHECK(chtest::decode(dst.data(), kSize) == 2);
    }
  }
}
