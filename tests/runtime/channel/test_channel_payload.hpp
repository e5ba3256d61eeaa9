// test_channel_payload.hpp — helpers shared by the channel tests: self-checking payloads, a
// bounded gate for pausing threads inside hooks, and the stress harness (one writer, N readers).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <semaphore>
#include <thread>
#include <vector>

#include "runtime/channel/channel_base.hpp"
#include "rtpar/channel.hpp"

namespace chtest {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// kMix spreads the word index so that words of different writes differ in many bits.
inline constexpr std::uint32_t kMix = 0x9E3779B9U;

// fill writes the payload of write `seq` into n bytes (n a multiple of 4, >= 8): 32-bit word i is
// seq ^ (i * kMix), and the last word is the checksum (the sum of all the others).
inline void fill(void* p, std::size_t n, std::uint32_t seq) {
  const std::size_t words = n / 4;
  std::uint32_t sum = 0;
  auto* out = static_cast<unsigned char*>(p);
  for (std::size_t i = 0; i + 1 < words; ++i) {
    const std::uint32_t w = seq ^ (static_cast<std::uint32_t>(i) * kMix);
    sum += w;
    std::memcpy(out + 4 * i, &w, 4);
  }
  std::memcpy(out + 4 * (words - 1), &sum, 4);
}

// word_seq is the write a payload word i claims to come from.
inline std::uint32_t word_seq(const void* p, std::size_t i) {
  std::uint32_t w;
  std::memcpy(&w, static_cast<const unsigned char*>(p) + 4 * i, 4);
  return w ^ (static_cast<std::uint32_t>(i) * kMix);
}

// decode returns the write a payload comes from, or -1 if it is torn (words from different writes
// or a wrong checksum). The initial all-zero payload decodes as write 0.
inline std::int64_t decode(const void* p, std::size_t n) {
  const auto* bytes = static_cast<const unsigned char*>(p);
  if (std::all_of(bytes, bytes + n, [](unsigned char b) { return b == 0; })) return 0;
  const std::size_t words = n / 4;
  const std::uint32_t seq = word_seq(p, 0);
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i + 1 < words; ++i) {
    if (word_seq(p, i) != seq) return -1;
    std::uint32_t w;
    std::memcpy(&w, static_cast<const unsigned char*>(p) + 4 * i, 4);
    sum += w;
  }
  std::uint32_t check;
  std::memcpy(&check, static_cast<const unsigned char*>(p) + 4 * (words - 1), 4);
  return check == sum ? static_cast<std::int64_t>(seq) : -1;
}

// Matrix is the paper's §5.3 payload: a 64x64 int matrix; fill/decode put the checksum in the
// last cell.
struct Matrix {
  std::int32_t cell[64][64];
};

// Gate lets a hook pause its thread until the test opens it, with every wait bounded (a broken
// protocol fails the test instead of hanging it).
struct Gate {
  std::counting_semaphore<1024> arrived{0};
  std::counting_semaphore<1024> open{0};

  // pause is called by the paused thread: announce arrival, wait to be let through.
  bool pause() {
    arrived.release();
    return open.try_acquire_for(5s);
  }
  // wait_arrival waits until a thread has paused.
  bool wait_arrival() { return arrived.try_acquire_for(5s); }
  // let_through releases n paused threads.
  void let_through(std::ptrdiff_t n = 1) { open.release(n); }
};

// config builds a ChannelConfig (lock channels without a ceiling, usable by SCHED_OTHER tests).
inline rtpar::ChannelConfig config(rtpar::ChannelKind kind, std::size_t size, int readers,
                                   int numtries = 2) {
  rtpar::ChannelConfig c;
  c.kind = kind;
  c.size_bytes = size;
  c.max_readers = readers;
  c.numtries = numtries;
  c.name = rtpar::to_string(kind);
  return c;
}

// StressStats is what the stress harness observed, summed over readers.
struct StressStats {
  long writes = 0;
  long reads = 0;
  long ok = 0;
  long failed = 0;
  long torn_ok = 0;       // successful reads whose payload is torn or disagrees with sequence
  long bad_failure = 0;   // failed reads that did not make exactly numtries attempts
  long over_tries = 0;    // reads with tries outside 1..numtries
  long non_monotone = 0;  // successful reads whose sequence went backwards for that reader
  long final_wrong = 0;   // final reads (writer stopped) not equal to the last write
};

// stress runs one writer and `readers` reader threads on channel until the writer has made
// max_writes writes or `budget` has passed (whichever comes first), then has every reader read
// once more. Bounded by count and time; the threads run SCHED_OTHER and never spin idle.
inline StressStats stress(rtpar::ByteChannel& channel, int readers, long max_writes,
                          std::chrono::milliseconds budget) {
  const std::size_t n = channel.size_bytes();
  const int numtries = channel.kind() == rtpar::ChannelKind::retry ? channel.config().numtries : 1;
  StressStats total;
  std::atomic<bool> done{false};
  std::vector<StressStats> per(static_cast<std::size_t>(readers));
  std::vector<std::thread> threads;
  std::atomic<int> started{0};
  const auto deadline = Clock::now() + budget;
  for (int r = 0; r < readers; ++r) {
    threads.emplace_back([&, r, reader = channel.reader(r)]() mutable {
      StressStats& s = per[static_cast<std::size_t>(r)];
      std::vector<unsigned char> dst(n);
      std::uint64_t last = 0;
      started.fetch_add(1);
      auto check = [&](const rtpar::ReadResult& res) {
        ++s.reads;
        if (res.tries < 1 || res.tries > numtries) ++s.over_tries;
        if (!res.ok) {
          ++s.failed;
          if (res.tries != numtries) ++s.bad_failure;
          return;
        }
        ++s.ok;
        if (res.sequence < last) ++s.non_monotone;
        last = res.sequence;
        if (decode(dst.data(), n) != static_cast<std::int64_t>(res.sequence)) ++s.torn_ok;
      };
      while (!done.load(std::memory_order_acquire) && Clock::now() < deadline + 1s) {
        check(reader.read(dst.data()));
        if ((s.reads & 15) == 0) std::this_thread::yield();
      }
      const rtpar::ReadResult res = reader.read(dst.data());
      check(res);
      s.writes = static_cast<long>(res.sequence);
    });
  }
  {
    std::vector<unsigned char> src(n);
    while (started.load() < readers) std::this_thread::yield();
    long w = 0;
    while (w < max_writes && Clock::now() < deadline) {
      fill(src.data(), n, static_cast<std::uint32_t>(++w));
      channel.write(src.data());
    }
    total.writes = w;
    done.store(true, std::memory_order_release);
  }
  for (auto& t : threads) t.join();
  for (const StressStats& s : per) {
    total.reads += s.reads;
    total.ok += s.ok;
    total.failed += s.failed;
    total.torn_ok += s.torn_ok;
    total.bad_failure += s.bad_failure;
    total.over_tries += s.over_tries;
    total.non_monotone += s.non_monotone;
    if (s.writes != total.writes) ++total.final_wrong;
  }
  return total;
}

}  // namespace chtest
