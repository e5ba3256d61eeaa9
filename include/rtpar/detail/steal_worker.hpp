// rtpar/detail/steal_worker.hpp — internals of rtpar/steal.hpp that its inline fast path needs: the
// profiling clock, the stealable Frame, and the Worker with its fixed-capacity Chase–Lev deque.
// Not an API: include rtpar/steal.hpp. Protocols and memory orderings: docs/internals/steal.md.
#pragma once

#include <time.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>

#include "rtpar/detail/chase_lev.hpp"

namespace rtpar::steal::detail {

// kScopeInlineBytes is the size of the callable a Scope child frame can hold.
inline constexpr std::size_t kScopeInlineBytes = 64;

// now_ns reads CLOCK_MONOTONIC (vDSO, no system call).
inline std::int64_t now_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// use_tsc says whether ticks() reads the CPU's timestamp counter (set by every Pool, always to the
// same value: CPUID's invariant-TSC bit) or falls back to now_ns().
inline std::atomic<bool> use_tsc{false};

// ticks is the profiling clock: the invariant TSC on x86 (one rdtsc, ~3× cheaper than a vDSO
// clock_gettime here), CLOCK_MONOTONIC ns otherwise. The Pool converts ticks to ns with a ratio
// it measures against CLOCK_MONOTONIC over its lifetime.
inline std::int64_t ticks() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  // relaxed: a standalone flag that publishes no data; every Pool stores the same value, and
  // threads that time jobs were started (or synchronized with) after the first store.
  if (use_tsc.load(std::memory_order_relaxed)) {
    return static_cast<std::int64_t>(__builtin_ia32_rdtsc());
  }
#endif
  return now_ns();
}

// Frame::state values. The order matters: `state >= kDone` means finished (calibration).
//   kPending -> kStolen -> kDone | kFailed   (stolen: the thief's two release stores, run_stolen)
//   kPending -> kFailed                      (popped back and run inline by its owner, Scope)
// kPending: in a deque, or popped back and run by its owner (set by the owner, relaxed: the
//           push's release store of bottom publishes it to thieves).
inline constexpr std::uint32_t kPending = 0;
// kStolen: a thief took it and wrote Frame::thief first (release: the owner's acquire reads thief).
inline constexpr std::uint32_t kStolen = 1;
// kDone: the thief finished (release: publishes the job's effects, span, bspan and deepest).
inline constexpr std::uint32_t kDone = 2;
// kFailed: finished and the job threw: its exception is in the frame (published like kDone).
inline constexpr std::uint32_t kFailed = 3;

// Strand is the profile of the strand a worker is executing (profiled depths only, in ticks):
// span and burdened span of everything before `start`, plus the time since.
struct Strand {
  std::int64_t span = 0, bspan = 0, start = 0;
};

// Frame is a stealable job: the unit a deque holds. It lives on the spawner's stack (join) or in
// the spawner's frame pool (Scope); a thief runs it and signals completion through state. The
// owner initializes only execute, state and depth; the other fields are written by whoever runs
// the job before state = kDone/kFailed (release).
struct Frame {
  // execute runs the job, capturing its exception into the frame; returns whether it threw.
  bool (*execute)(Frame*) noexcept;
  std::atomic<std::uint32_t> state;
  int depth;    // join depth the job runs at (profiled iff depth ≤ profile_depth)
  int thief;    // worker that stole it; written before state = kStolen (release)
  int deepest;  // deepest join depth the thief's run of it reached (burden of unprofiled paths)
  std::int64_t span, bspan;  // the job's span and burdened span (ticks; profiled frames)
};

// Worker is one worker's deque, budget and counters. The deque is rtpar's one Chase–Lev deque
// (rtpar/detail/chase_lev.hpp: push, pop, pop_last, steal and their invariants), whose capacity
// is never exceeded here — join depth ≤ max_depth, scope frames ≤ frames_per_worker, and a worker
// only steals with an empty deque — so the unchecked push is safe (its invariant 3).
struct alignas(64) Worker : rtpar::detail::ChaseLevDeque<Frame> {
  // Owner-only state (the join fast path touches depth, deepest, spawns).
  int depth = 0;    // current join nesting depth
  int deepest = 0;  // deepest depth reached in the current unprofiled subtree
  std::uint64_t spawns = 0;
  int max_depth = 0;        // budget.max_depth
  int profile_depth = 0;    // budget.profile_depth
  int frames_used = 0;      // scope frames in use (a stack: scopes nest on a worker)
  int frames_capacity = 0;  // budget.frames_per_worker
  int index = 0;
  std::byte* frame_pool = nullptr;
  std::size_t frame_stride = 0;
  Strand prof;              // the strand being executed (profiled depths)
  std::int64_t burden = 0;  // steal cost C in ticks (burdened span per join)
  std::int64_t busy = 0;    // ticks of top-level job execution this run
  std::int64_t idle = 0;    // ticks of waiting inside them (leapfrogging spins)
  std::uint64_t steals = 0;
  std::uint64_t rng = 0;
  Worker* const* peers = nullptr;  // all workers of the pool (leapfrogging looks up the thief)

  // enter records that code now runs at depth d (the deepest depth of an unprofiled subtree
  // bounds the joins on its paths: the burdened span charges one steal cost per join).
  void enter(int d) noexcept {
    depth = d;
    if (d > deepest) deepest = d;
  }
};

// tls_worker is the worker the calling thread is, or nullptr outside a pool's job.
inline thread_local Worker* tls_worker = nullptr;

}  // namespace rtpar::steal::detail
