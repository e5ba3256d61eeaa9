// rtpar/detail/steal_worker.hpp — internals of rtpar/steal.hpp that its inline fast path needs: the
// profiling clock, the stealable Frame, and the Worker with its fixed-capacity Chase–Lev deque.
// Not an API: include rtpar/steal.hpp. Protocols and memory orderings: docs/internals/steal.md.
#pragma once

#include <time.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>

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
  if (use_tsc.load(std::memory_order_relaxed)) {
    return static_cast<std::int64_t>(__builtin_ia32_rdtsc());
  }
#endif
  return now_ns();
}

// Frame states: pending (in a deque or being run by its owner), stolen (thief recorded), done,
// failed (done, and the job threw: its exception is in the frame).
enum : std::uint32_t { kPending, kStolen, kDone, kFailed };

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

// Worker is one worker's deque, budget and counters. The deque is a fixed-capacity Chase–Lev
// deque (Lê et al., PPoPP'13) with its fences expressed as seq_cst accesses:
//
//   push (owner):  buf[b] = x (relaxed); bottom = b+1 (release)
//   pop  (owner):  b = bottom-1; bottom.exchange(b) (seq_cst); t = top (seq_cst);
//                  t < b: take buf[b];  t == b: last element, CAS top t→t+1 (seq_cst) decides
//                  against a thief, then bottom = b+1;  t > b: empty, bottom = b+1.
//   steal (thief): t = top (seq_cst); b = bottom (seq_cst); t < b: x = buf[t]; CAS top t→t+1.
//
// Why it is correct: (1) the owner's store to bottom and load of top, and the thief's load of top
// and load of bottom, are all seq_cst, so in the single total order either the thief sees the
// decremented bottom (and backs off) or the owner sees the thief's incremented top (and takes the
// CAS path, where exactly one CAS on top succeeds): an element is never taken twice. This is the
// role of the two seq_cst fences in Lê et al. Fig. 1. (2) The release store of bottom in push pairs
// with the thief's load of bottom, so the frame's contents written before the push are visible to
// the thief that reads it. (3) The capacity is never exceeded (join depth ≤ max_depth, scope frames
// ≤ frames_per_worker, and a worker only steals with an empty deque), so a slot is never
// overwritten while a thief may still read it with a winning CAS; the slots are atomics, so a
// losing thief's stale read is not a data race. On x86 the fast path costs one xchg (pop) and plain
// moves: no lock, no system call, no allocation.
struct alignas(64) Worker {
  alignas(64) std::atomic<std::int64_t> top{0};
  alignas(64) std::atomic<std::int64_t> bottom{0};
  std::atomic<Frame*>* buffer = nullptr;
  std::int64_t mask = 0;
  // Owner-only state (the join fast path touches depth, deepest, spawns: bottom's line).
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

  // push appends x at the bottom (owner only).
  void push(Frame* x) noexcept {
    const std::int64_t b = bottom.load(std::memory_order_relaxed);
    buffer[b & mask].store(x, std::memory_order_relaxed);
    bottom.store(b + 1, std::memory_order_release);
  }
  // pop removes the bottom element (owner only); nullptr when empty or lost to a thief.
  Frame* pop() noexcept {
    const std::int64_t b = bottom.load(std::memory_order_relaxed) - 1;
    bottom.exchange(b, std::memory_order_seq_cst);
    const std::int64_t t = top.load(std::memory_order_seq_cst);
    return t < b ? buffer[b & mask].load(std::memory_order_relaxed) : pop_last(b, t);
  }
  // pop_last is pop with at most one element left (worker.cpp): t == b, CAS top against thieves.
  Frame* pop_last(std::int64_t b, std::int64_t t) noexcept;
  // steal removes the top element (any thread); nullptr when empty or when another took it.
  Frame* steal() noexcept {
    std::int64_t t = top.load(std::memory_order_seq_cst);
    const std::int64_t b = bottom.load(std::memory_order_seq_cst);
    if (t >= b) return nullptr;
    Frame* x = buffer[t & mask].load(std::memory_order_relaxed);
    if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                     std::memory_order_relaxed)) {
      return nullptr;
    }
    return x;
  }
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
