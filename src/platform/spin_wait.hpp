// spin_wait.hpp — the spin half of every spin-then-sleep wait in rtpar: the team's signal words
// (runtime/team/signal_word.hpp), the strand dispatcher's gates (runtime/executor/
// strand_runner.cpp) and the steal pool's idle and join waits (runtime/steal/pool.cpp).
//
// spin_until only spins: it never sleeps and makes no system call (the clock is CLOCK_MONOTONIC
// through the vDSO, read once per `clock_every` rounds). When it gives up the caller sleeps with
// its own futex protocol (a sleeper flag, a sleeper count, or a plain re-checked futex_wait), so
// each wait keeps its own wake protocol and memory orders: `done` does the loads, with the
// orders its call site's protocol needs, and spin_until adds no atomic operation of its own.
#pragma once

#include <time.h>

#include <cstdint>

#include "rtpar/cpu_relax.hpp"

namespace rtpar::detail {

// kSpinForever as spin_ns: no time bound (the spin ends only on done() or give_up()).
inline constexpr std::int64_t kSpinForever = -1;

// spin_clock_ns reads CLOCK_MONOTONIC (vDSO, no system call) in ns.
inline std::int64_t spin_clock_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// NeverGiveUp is the default give_up of spin_until.
struct NeverGiveUp {
  bool operator()() const noexcept { return false; }
};

// spin_until spins with cpu_relax until done() holds (returns true) or spin_ns have passed or
// give_up() holds (returns done() once more). done() is called before every pause; the clock and
// give_up() only every `clock_every` rounds (a clock read is a vDSO call: cheap, not free), so the
// budget may overrun by up to clock_every pauses. spin_ns = kSpinForever spins without a bound; a
// budget of 0 still spins clock_every rounds (callers that must not spin skip the call).
template <class Done, class GiveUp = NeverGiveUp>
bool spin_until(Done&& done, std::int64_t spin_ns, GiveUp&& give_up = {},
                std::uint32_t clock_every = 64) noexcept(noexcept(done()) && noexcept(give_up())) {
  const bool bounded = spin_ns != kSpinForever;
  const std::int64_t end = bounded ? spin_clock_ns() + spin_ns : 0;
  for (std::uint32_t i = 1;; ++i) {
    if (done()) return true;
    cpu_relax();
    if (i % clock_every == 0 && (give_up() || (bounded && spin_clock_ns() >= end))) {
      return done();
    }
  }
}

}  // namespace rtpar::detail
