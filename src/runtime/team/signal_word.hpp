// signal_word.hpp — a 32-bit word that threads wait on by spinning, sleeping, or both.
//
// Protocol. Bit 0 of the word is the SLEEPER flag ("someone may be asleep in futex_wait on this
// word"); bits 1..31 carry the payload (a generation, or a count in units of 2). A waiter that
// decides to sleep first sets the flag with a CAS, then sleeps only while the word still equals
// the value it saw *with* the flag. A publisher changes the payload with an RMW (publish's
// exchange, or the team's join arrival fetch_add) and calls futex_wake only if the old value had
// the flag — so publishing to a spinning waiter costs no system call, and to a sleeping one
// exactly one. Invariants (cited as "signal word (n)"; docs/internals/forkjoin.md):
//  (1) no lost wake-up: the flag CAS and the publisher's RMW are RMWs of one word, so they are
//      totally ordered whatever their memory orders. CAS first → the RMW returns the flag and the
//      publisher wakes; RMW first → the CAS fails (the payload changed) and the waiter re-reads;
//      flag set, then payload changed before futex_wait → the kernel's compare fails and
//      futex_wait returns at once.
//  (2) publication: publishers use release RMWs and waiters acquire loads/CASes, so everything a
//      publisher wrote before publishing (a region pointer, a reset counter) is visible to a
//      waiter that observes the new payload. Arrivals added with acq_rel fetch_add form a release
//      sequence, so the waiter that sees the final count sees every arriver's writes.
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>

#include "platform/futex.hpp"
#include "platform/spin_wait.hpp"
#include "rtpar/cpu_relax.hpp"
#include "rtpar/team.hpp"

namespace rtpar::detail {

// kSleeper is the flag bit; payloads are multiples of 2.
inline constexpr std::uint32_t kSleeper = 1;
// kKeepSpinning is the value of a WaitSpec::stop_spinning word that lets waiters spin; any other
// value sends them to sleep.
inline constexpr std::uint32_t kKeepSpinning = 0;

using rtpar::cpu_relax;

// publish replaces the payload of word with `payload` (flag cleared) and wakes every sleeper.
inline void publish(std::atomic<std::uint32_t>& word, std::uint32_t payload) noexcept {
  // release RMW: publishes what the caller wrote before to the waiters' acquire loads (2);
  // returns the SLEEPER flag it replaced, so a flagged waiter is woken (1).
  if ((word.exchange(payload, std::memory_order_release) & kSleeper) != 0) {
    futex_wake(word, INT_MAX);
  }
}

// advance adds 2 to the payload of word (flag cleared) and wakes every sleeper. Unlike publish,
// the new payload is computed inside the RMW, so it differs from every value a waiter can have
// read before it — the condition (1) needs when the waiters' predicate is not the word itself and
// the publisher may read the word stale (ordered.cpp: successive token holders).
inline void advance(std::atomic<std::uint32_t>& word) noexcept {
  // relaxed: the CAS below re-reads the value it replaces.
  std::uint32_t old = word.load(std::memory_order_relaxed);
  // release CAS: publishes what the caller wrote before (2); as an RMW it is totally ordered with
  // a waiter's flag CAS (1), and it returns the flag it replaced.
  while (!word.compare_exchange_weak(old, (old & ~kSleeper) + 2, std::memory_order_release,
                                     std::memory_order_relaxed)) {
  }
  if ((old & kSleeper) != 0) futex_wake(word, INT_MAX);
}

// WaitSpec is how long a waiter may spin before sleeping, and what ends spinning early.
struct WaitSpec {
  WaitKind kind = WaitKind::block;
  std::int64_t spin_ns = 0;                                   // hybrid: spin budget
  const std::atomic<std::uint32_t>* stop_spinning = nullptr;  // not kKeepSpinning → sleep now
};

// wait_until waits until done(word value) is true, spinning and/or sleeping as spec says, and
// returns the value that satisfied it (acquire).
template <class Done>
std::uint32_t wait_until(std::atomic<std::uint32_t>& word, const WaitSpec& spec, Done done) {
  std::uint32_t v = 0;
  if (spec.kind != WaitKind::block) {
    // spin: unbounded; hybrid: spec.spin_ns. stop_spinning and the clock are polled every 64
    // rounds (spin_until's default).
    const std::int64_t spin_ns = spec.kind == WaitKind::hybrid ? spec.spin_ns : kSpinForever;
    const bool ok = spin_until(
        // acquire (2): pairs with the publisher's release RMW; the caller sees what it published.
        [&] { return done(v = word.load(std::memory_order_acquire)); }, spin_ns,
        // relaxed: a hint to stop spinning early (the team's parked_); nothing is read through
        // it, and a waiter that stops spinning still waits for the payload below.
        [&] {
          return spec.stop_spinning != nullptr &&
                 spec.stop_spinning->load(std::memory_order_relaxed) != kKeepSpinning;
        });
    if (ok) return v;
  }
  for (;;) {
    // acquire: as above (2); the sleep path re-checks before every sleep.
    v = word.load(std::memory_order_acquire);
    if (done(v)) return v;
    if ((v & kSleeper) == 0) {
      // acquire CAS (both orders): sets the SLEEPER flag; being an RMW it is totally ordered
      // with the publisher's RMW, so either the publisher sees the flag and wakes, or the CAS
      // fails on the new payload (1). Its acquire halves are stronger than needed: either way
      // the loop re-loads the word with acquire before acting on it.
      if (!word.compare_exchange_weak(v, v | kSleeper, std::memory_order_acquire,
                                      std::memory_order_acquire)) {
        continue;  // the word changed: re-check before sleeping
      }
      v |= kSleeper;
    }
    futex_wait(word, v);
  }
}

// wait_change waits until the payload of word differs from `seen` and returns the new value.
inline std::uint32_t wait_change(std::atomic<std::uint32_t>& word, std::uint32_t seen,
                                 const WaitSpec& spec) {
  return wait_until(word, spec, [seen](std::uint32_t v) { return (v & ~kSleeper) != seen; });
}

}  // namespace rtpar::detail
