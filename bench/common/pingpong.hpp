// pingpong.hpp — the floors: a round trip between two pinned threads, by spinning and by futex.
//
// The master (CPU of rank 0) hands a token to a partner (CPU of rank 1) and waits for it back.
// A fork/join of two threads needs at least one such round trip (fork = hand over, join = hand
// back), so these are the cheapest a 2-thread team can be with each waiting mechanism:
//   spin-pingpong  — both sides spin on one shared word: two cache-line transfers;
//   futex-pingpong — both sides sleep in FUTEX_WAIT at once and are woken by FUTEX_WAKE: two
//                    wake-ups (an IPI and a context switch each) plus the system calls.
// The token is a sequence number: the master stores odd values, the partner answers with the
// next even one, so neither side can mistake an old value for a new one.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rtpar/cpu_relax.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "common/harness.hpp"
#include "common/pinned_thread.hpp"
#include "common/pinning.hpp"

namespace rtpar_bench {

// futex_wait sleeps while word == expected (returns at once otherwise; spurious returns happen).
inline void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
}

// futex_wake wakes every thread sleeping on word.
inline void futex_wake(std::atomic<std::uint32_t>& word) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
          nullptr, 0);
}

using rtpar::cpu_relax;

// PingPongKind selects the waiting mechanism of both sides.
enum class PingPongKind { spin, futex };

// kStopToken tells the partner to exit (odd, so the partner sees it as a new hand-over).
inline constexpr std::uint32_t kStopToken = 0xFFFFFFFFu;

// time_pingpong measures `iters` round trips (after `warmup`) from the calling thread, which the
// caller has placed on the master's CPU, to a partner started at `partner`.
inline std::vector<std::int64_t> time_pingpong(PingPongKind kind, const Placement& partner,
                                               std::int64_t iters, std::int64_t warmup) {
  // The token owns its cache line: a neighbour on the stack written by the master (its loop
  // counter) would otherwise invalidate the partner's copy while it spins — false sharing that
  // inflates the floor.
  struct alignas(64) Line {
    std::atomic<std::uint32_t> word{0};
    char pad[64 - sizeof(std::atomic<std::uint32_t>)] = {};
  };
  auto line = std::make_unique<Line>();
  std::atomic<std::uint32_t>& token = line->word;
  const bool spin = kind == PingPongKind::spin;
  // wait_while blocks until token != seen, spinning or sleeping; returns the new value.
  auto wait_while = [&](std::uint32_t seen) {
    std::uint32_t v;
    while ((v = token.load(std::memory_order_acquire)) == seen) {
      if (spin) {
        cpu_relax();
      } else {
        futex_wait(token, seen);
      }
    }
    return v;
  };
  auto hand_over = [&](std::uint32_t v) {
    token.store(v, std::memory_order_release);
    if (!spin) futex_wake(token);
  };
  std::vector<std::int64_t> samples;
  {
    PinnedThread partner_thread(partner, [&] {
      std::uint32_t seen = 0;
      for (;;) {
        seen = wait_while(seen);
        if (seen == kStopToken) return;
        hand_over(++seen);
      }
    });
    std::uint32_t next = 1;
    samples = time_back_to_back(iters, warmup, [&] {
      hand_over(next);
      next = wait_while(next) + 1;
    });
    hand_over(kStopToken);
  }  // joins the partner
  return samples;
}

// kProbeRoundTrips is the size of the host probe: ~1 ms of spinning at most.
inline constexpr std::int64_t kProbeRoundTrips = 5000;

// probe_rtt_ns is the median spin round trip between cpu_a and cpu_b, measured by two helper
// threads so the caller's own placement (and its runtime's threads) are not involved. Every
// program reports it: on a VM the cache-line latency between two vCPUs changes when the host
// moves them, by several times, and a runtime measured in a slow phase must not be compared
// blindly with one measured in a fast phase. Returns -1 if the threads could not be placed.
inline std::int64_t probe_rtt_ns(int cpu_a, int cpu_b, bool fifo, int priority) {
  std::vector<std::int64_t> s;
  try {
    PinnedThread master(Placement{cpu_a, fifo, priority}, [&] {
      try {
        s = time_pingpong(PingPongKind::spin, Placement{cpu_b, fifo, priority}, kProbeRoundTrips,
                          kProbeRoundTrips / 10);
      } catch (const std::exception&) {
        s.clear();
      }
    });
  } catch (const std::exception&) {
    return -1;
  }
  if (s.empty()) return -1;
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

}  // namespace rtpar_bench
