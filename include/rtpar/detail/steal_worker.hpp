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

// Worker is one worker's deque, budget and counters. The deque is a fixed-capacity Chase–Lev
// deque (Lê et al., PPoPP'13) whose two seq_cst fences are expressed as seq_cst accesses (one xchg
// on x86; TSan understands them). Invariants, each argued on the line it rests on (push, pop,
// steal below; pop_last in worker.cpp; docs/internals/steal.md §3.1):
//  (1) the owner's bottom exchange and top load and the thief's top and bottom loads are all in
//      the seq_cst total order: either the thief sees the decremented bottom or the owner sees the
//      thief's incremented top and races it with one CAS on top — no element is taken twice;
//  (2) push's release store of bottom publishes the frame to the thief that loads bottom;
//  (3) the capacity is never exceeded (join depth ≤ max_depth, scope frames ≤ frames_per_worker,
//      a worker only steals with an empty deque), so no slot is overwritten while a thief may still
//      win a CAS for it; slots are atomics, so a losing thief's stale read is no data race.
struct alignas(64) Worker {
  alignas(64) std::atomic<std::int64_t> top{0};     // next to steal; only CASes advance it
  alignas(64) std::atomic<std::int64_t> bottom{0};  // next free slot; only the owner writes it
  std::atomic<Frame*>* buffer = nullptr;  // slots: relaxed, ordered by bottom/top (invariant 2)
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
    // relaxed: bottom has one writer, this thread; we read our own last store.
    const std::int64_t b = bottom.load(std::memory_order_relaxed);
    // relaxed: no thief reads slot b until it sees bottom > b, which the release below orders.
    buffer[b & mask].store(x, std::memory_order_relaxed);
    // release: pairs with the thief's seq_cst (⊇ acquire) load of bottom; a thief that sees b+1
    // sees the slot and the frame's fields (execute, state, depth) written before the push.
    bottom.store(b + 1, std::memory_order_release);
  }
  // pop removes the bottom element (owner only); nullptr when empty or lost to a thief.
  Frame* pop() noexcept {
    // relaxed: owner-only writer; we read our own last store.
    const std::int64_t b = bottom.load(std::memory_order_relaxed) - 1;
    // seq_cst (Lê et al.'s first fence): the reservation of slot b enters the total order before
    // our top load, so a thief whose bottom load follows it does not take slot b (invariant 1).
    bottom.exchange(b, std::memory_order_seq_cst);
    // seq_cst: after the exchange in the total order, so a thief that can still take slot b (it
    // read the old bottom) shows up as t >= b, and pop_last decides slot b by CAS.
    const std::int64_t t = top.load(std::memory_order_seq_cst);
    // relaxed: t < b means no thief can reach slot b any more, and we wrote the slot ourselves.
    return t < b ? buffer[b & mask].load(std::memory_order_relaxed) : pop_last(b, t);
  }
  // pop_last is pop with at most one element left (worker.cpp): t == b, CAS top against thieves.
  Frame* pop_last(std::int64_t b, std::int64_t t) noexcept;
  // steal removes the top element (any thread); nullptr when empty or when another took it.
  Frame* steal() noexcept {
    // seq_cst: top is read before bottom in the total order (Lê et al.'s second fence), so a
    // concurrent pop either sees our later CAS or we see its decremented bottom (invariant 1).
    std::int64_t t = top.load(std::memory_order_seq_cst);
    // seq_cst (⊇ acquire): pairs with push's release store of bottom; we see slot t and its frame.
    const std::int64_t b = bottom.load(std::memory_order_seq_cst);
    if (t >= b) return nullptr;
    // relaxed: ordered by the acquire above; a stale value only matters if the CAS wins, and a
    // winning CAS means slot t was not reused (invariant 3).
    Frame* x = buffer[t & mask].load(std::memory_order_relaxed);
    // seq_cst: the one RMW that decides slot t against other thieves and pop_last's CAS.
    // Failure relaxed: another thread took slot t; we return nothing and read nothing else.
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
