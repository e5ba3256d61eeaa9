// test_channel_api.cpp — channel behaviour common to every kind: names, validation, initial value,
// odd sizes, reader claims, memory formula, typed channels, no allocation after creation, and
// monotone sequences for one reader.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "rtpar/channel.hpp"
#include "rtpar/error.hpp"
#include "runtime/channel/test_channel_payload.hpp"
#include "support/counting_allocator.hpp"

using rtpar::ChannelKind;
using namespace std::chrono_literals;

namespace {

const ChannelKind kKinds[] = {ChannelKind::retry, ChannelKind::double_buffer, ChannelKind::latest,
                              ChannelKind::lock};

// field_of returns the field of the InputError that make_channel(c) throws ("" if none).
std::string field_of(const rtpar::ChannelConfig& c) {
  try {
    make_channel(c);
  } catch (const rtpar::InputError& e) {
    return e.field();
  }
  return "";
}

}  // namespace

TEST_CASE("channel: kind names round-trip and unknown names are rejected") {
  for (ChannelKind kind : kKinds) CHECK(rtpar::parse_channel_kind(rtpar::to_string(kind)) == kind);
  CHECK(std::string(rtpar::to_string(ChannelKind::double_buffer)) == "double_buffer");
  CHECK_FALSE(rtpar::parse_channel_kind("seqlock").has_value());
  CHECK(rtpar::ChannelConfig{}.kind == ChannelKind::latest);  // the default
  CHECK(rtpar::ChannelConfig{}.numtries == 2);
}

TEST_CASE("channel: invalid configurations are refused naming the channel and the field") {
  auto base = chtest::config(ChannelKind::retry, 64, 2);
  base.name = "cam";
  auto with = [&](auto change) {
    auto c = base;
    change(c);
    return field_of(c);
  };
  CHECK(with([](auto& c) { c.size_bytes = 0; }) == "cam.size_bytes");
  CHECK(with([](auto& c) { c.size_bytes = rtpar::kMaxChannelBytes + 1; }) == "cam.size_bytes");
  CHECK(with([](auto& c) { c.max_readers = 0; }) == "cam.max_readers");
  CHECK(with([](auto& c) { c.max_readers = rtpar::kMaxChannelReaders + 1; }) == "cam.max_readers");
  CHECK(with([](auto& c) { c.numtries = 0; }) == "cam.numtries");
  CHECK(with([](auto& c) { c.ceiling_priority = 100; }) == "cam.ceiling_priority");
  CHECK(with([](auto& c) { c.ceiling_priority = -1; }) == "cam.ceiling_priority");
  CHECK(with([](auto& c) { c.lock_rank = -2; }) == "cam.lock_rank");
  CHECK(with([](auto& c) { c.lock_rank = rtpar::kMaxExplicitLockRank; }) == "cam.lock_rank");
  CHECK(with([](auto&) {}).empty());
  CHECK_THROWS_AS(rtpar::channel_memory_bytes(rtpar::ChannelConfig{}), rtpar::InputError);
}

TEST_CASE("channel: every kind starts at zeros with sequence 0 and returns the last write") {
  for (ChannelKind kind : kKinds) {
    for (std::size_t size : {1, 3, 7, 8, 9, 15, 64, 100, 4099}) {
      INFO("kind=", std::string(rtpar::to_string(kind)), " size=", size);
      auto channel = make_channel(chtest::config(kind, size, 2));
      auto reader = channel->reader(1);
      // dst has guard bytes after the payload: a read must write exactly size bytes.
      std::vector<unsigned char> dst(size + 16, 0xAA);
      rtpar::ReadResult r = reader.read(dst.data());
      CHECK(r.ok);
      CHECK(r.tries == 1);
      CHECK(r.sequence == 0);
      CHECK(std::all_of(dst.begin(), dst.begin() + static_cast<long>(size),
                        [](unsigned char b) { return b == 0; }));
      CHECK(std::all_of(dst.begin() + static_cast<long>(size), dst.end(),
                        [](unsigned char b) { return b == 0xAA; }));
      std::vector<unsigned char> src(size);
      for (int w = 1; w <= 3; ++w) {
        for (std::size_t i = 0; i < size; ++i) src[i] = static_cast<unsigned char>(i * 7 + w);
        channel->write(src.data());
        r = reader.read(dst.data());
        CHECK(r.ok);
        CHECK(r.sequence == static_cast<std::uint64_t>(w));
        CHECK(std::memcmp(dst.data(), src.data(), size) == 0);
        CHECK(dst[size] == 0xAA);
      }
    }
  }
}

TEST_CASE("channel: reader indices are claimed once, range-checked, and freed by their handle") {
  for (ChannelKind kind : kKinds) {
    auto channel = make_channel(chtest::config(kind, 16, 2));
    CHECK_THROWS_AS(channel->reader(-1), rtpar::InputError);
    CHECK_THROWS_AS(channel->reader(2), rtpar::InputError);
    {
      auto r0 = channel->reader(0);
      CHECK(r0.index() == 0);
      CHECK(r0.channel() == channel.get());
      CHECK_THROWS_AS(channel->reader(0), rtpar::InputError);
      rtpar::ChannelReader moved = std::move(r0);
      CHECK_FALSE(static_cast<bool>(r0));  // NOLINT(bugprone-use-after-move): moved-from is empty
      CHECK(moved.index() == 0);
      CHECK_THROWS_AS(channel->reader(0), rtpar::InputError);
      unsigned char dst[16];
      CHECK_FALSE(r0.read(dst).ok);  // NOLINT(bugprone-use-after-move)
    }
    auto again = channel->reader(0);  // freed when `moved` died
    CHECK(again.index() == 0);
  }
}

TEST_CASE("channel: memory_bytes equals channel_memory_bytes and follows the documented formula") {
  for (ChannelKind kind : kKinds) {
    for (std::size_t size : {1, 100, 1 << 20}) {
      for (int readers : {1, 3}) {
        const auto c = chtest::config(kind, size, readers);
        auto channel = make_channel(c);
        CHECK(channel->memory_bytes() == rtpar::channel_memory_bytes(c));
      }
    }
  }
  // Payload copies by kind: retry and lock 1, double_buffer 2, latest readers + 2; the rest is a
  // per-reader control line (latest) and a fixed overhead under a kilobyte.
  const std::size_t stride = 1 << 20;
  auto bytes = [](ChannelKind kind, int readers) {
    return rtpar::channel_memory_bytes(chtest::config(kind, 1 << 20, readers));
  };
  CHECK(bytes(ChannelKind::retry, 1) - stride < 1024);
  CHECK(bytes(ChannelKind::lock, 1) - stride < 1024);
  CHECK(bytes(ChannelKind::double_buffer, 1) - 2 * stride < 1024);
  CHECK(bytes(ChannelKind::latest, 1) - 3 * stride < 1024);
  CHECK(bytes(ChannelKind::latest, 5) - bytes(ChannelKind::latest, 4) ==
        stride + 64 + sizeof(std::uint64_t) + sizeof(std::int64_t) + sizeof(bool) +
            64);  // a reader slot: claim flag and read counters, one cache line
  CHECK(rtpar::channel_memory_bytes(chtest::config(ChannelKind::retry, 65, 1)) -
            rtpar::channel_memory_bytes(chtest::config(ChannelKind::retry, 64, 1)) ==
        64);  // payloads are padded to whole cache lines
}

TEST_CASE("channel: Channel<T> carries a typed payload and checks the byte channel's size") {
  rtpar::Channel<chtest::Matrix> matrices(chtest::config(ChannelKind::latest, 0, 2));
  CHECK(matrices.bytes().size_bytes() == sizeof(chtest::Matrix));
  auto reader = matrices.reader(1);
  auto m = std::make_unique<chtest::Matrix>();
  chtest::fill(m.get(), sizeof(chtest::Matrix), 42);
  matrices.write(*m);
  auto out = std::make_unique<chtest::Matrix>();
  const rtpar::ReadResult r = reader.read(*out);
  CHECK(r.ok);
  CHECK(r.sequence == 1);
  CHECK(chtest::decode(out.get(), sizeof(chtest::Matrix)) == 42);
  CHECK(out->cell[63][63] == m->cell[63][63]);

  // Adopting a byte channel (what a task-set loader does) checks the size.
  std::shared_ptr<rtpar::ByteChannel> shared =
      make_channel(chtest::config(ChannelKind::retry, 8, 1));
  rtpar::Channel<std::uint64_t> words(shared);
  words.write(0x0123456789ABCDEFULL);
  std::uint64_t v = 0;
  CHECK(words.reader(0).read(v).ok);
  CHECK(v == 0x0123456789ABCDEFULL);
  CHECK_THROWS_AS(rtpar::Channel<std::uint32_t>{shared}, rtpar::InputError);
  CHECK_THROWS_AS(rtpar::Channel<std::uint32_t>{chtest::config(ChannelKind::lock, 8, 1)},
                  rtpar::InputError);
}

TEST_CASE("channel: no allocation after creation in any kind's write, read and hold") {
  for (ChannelKind kind : kKinds) {
    constexpr std::size_t kSize = 4096 + 12;
    auto channel = make_channel(chtest::config(kind, kSize, 2));
    auto reader0 = channel->reader(0);
    auto reader1 = channel->reader(1);
    rtpar::Channel<chtest::Matrix> typed(chtest::config(kind, 0, 1));
    auto typed_reader = typed.reader(0);
    auto matrix = std::make_unique<chtest::Matrix>();
    std::vector<unsigned char> src(kSize);
    std::vector<unsigned char> dst(kSize);

    // Same thread: writes, reads, holds, typed access. No doctest assertion inside the measured
    // region: doctest itself may allocate on its first assertion.
    int failed_reads = 0;
    const long before = rtpar::test::thread_allocations();
    for (std::uint32_t i = 1; i <= 200; ++i) {
      chtest::fill(src.data(), kSize, i);
      channel->write(src.data());
      failed_reads += reader0.read(dst.data()).ok ? 0 : 1;
      {
        rtpar::ChannelHold hold(*channel);
        channel->write(src.data());
        failed_reads += reader1.read(dst.data()).ok ? 0 : 1;
      }
      typed.write(*matrix);
      failed_reads += typed_reader.read(*matrix).ok ? 0 : 1;
    }
    const long allocations = rtpar::test::thread_allocations() - before;
    CHECK_MESSAGE(allocations == 0, std::string(rtpar::to_string(kind)));
    CHECK(failed_reads == 0);

    // Concurrently: each thread counts its own allocations around its loop.
    long writer_allocs = -1;
    long reader_allocs = -1;
    std::thread writer([&] {
      std::vector<unsigned char> local(kSize);
      const long start = rtpar::test::thread_allocations();
      for (std::uint32_t i = 1; i <= 300; ++i) channel->write(local.data());
      writer_allocs = rtpar::test::thread_allocations() - start;
    });
    std::thread reading([&] {
      std::vector<unsigned char> local(kSize);
      const long start = rtpar::test::thread_allocations();
      for (int i = 0; i < 300; ++i) reader1.read(local.data());
      reader_allocs = rtpar::test::thread_allocations() - start;
    });
    writer.join();
    reading.join();
    CHECK_MESSAGE(writer_allocs == 0, std::string(rtpar::to_string(kind)));
    CHECK_MESSAGE(reader_allocs == 0, std::string(rtpar::to_string(kind)));
  }
}

TEST_CASE("channel: sequence numbers never decrease for one reader under a concurrent writer") {
  for (ChannelKind kind : kKinds) {
    auto channel = make_channel(chtest::config(kind, 256, 1));
    const chtest::StressStats s = chtest::stress(*channel, 1, 3000, 200ms);
    INFO("kind=", std::string(rtpar::to_string(kind)), " writes=", s.writes, " reads=", s.reads);
    CHECK(s.writes > 0);
    CHECK(s.non_monotone == 0);
    CHECK(s.final_wrong == 0);
    CHECK(s.over_tries == 0);
    CHECK(s.bad_failure == 0);
    // double_buffer may tear under laps (its flaw); the others never report a torn success.
    if (kind != ChannelKind::double_buffer) CHECK(s.torn_ok == 0);
  }
}
