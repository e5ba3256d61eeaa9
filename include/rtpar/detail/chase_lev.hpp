// rtpar/detail/chase_lev.hpp — the work-stealing deque, the one copy shared by rtpar's
// work-stealing runtime (steal::detail::Worker) and the OpenMP runtime's explicit tasks
// (src/omp/task.hpp's TaskDeque). Not an API. Protocols: docs/internals/steal.md §3.1.
#pragma once

#include <atomic>
#include <cstdint>

namespace rtpar::detail {

// ChaseLevDeque is a fixed-capacity Chase–Lev deque of T* (Lê et al., PPoPP'13) whose two seq_cst
// fences are expressed as seq_cst accesses (one xchg on x86; TSan understands them). The owner
// pushes and pops at the bottom; thieves steal at the top. The storage (`buffer`, a power-of-two
// number of slots, `mask` = slots - 1) belongs to whoever embeds the deque. Invariants, each
// argued on the line it rests on:
//  (1) the owner's bottom exchange and top load and the thief's top and bottom loads are all in
//      the seq_cst total order: either the thief sees the decremented bottom or the owner sees the
//      thief's incremented top and races it with one CAS on top — no element is taken twice;
//  (2) push's release store of bottom publishes the element (and what it points to) to the thief
//      that loads bottom;
//  (3) no slot is overwritten while a thief may still win a CAS for it: either the embedder
//      never exceeds the capacity (push; the steal runtime's budget), or try_push checks it
//      against an acquire load of top; slots are atomics, so a losing thief's stale read is no
//      data race.
template <class T>
struct ChaseLevDeque {
  alignas(64) std::atomic<std::int64_t> top{0};     // next to steal; only CASes advance it
  alignas(64) std::atomic<std::int64_t> bottom{0};  // next free slot; only the owner writes it
  std::atomic<T*>* buffer = nullptr;  // slots: relaxed, ordered by bottom/top (invariant 2)
  std::int64_t mask = 0;              // slots - 1

  // push appends x at the bottom (owner only; the caller keeps the capacity, invariant 3).
  void push(T* x) noexcept {
    // relaxed: bottom has one writer, this thread; we read our own last store.
    const std::int64_t b = bottom.load(std::memory_order_relaxed);
    // relaxed: no thief reads slot b until it sees bottom > b, which the release below orders.
    buffer[b & mask].store(x, std::memory_order_relaxed);
    // release: pairs with the thief's seq_cst (⊇ acquire) load of bottom; a thief that sees b+1
    // sees the slot and everything written to *x before the push.
    bottom.store(b + 1, std::memory_order_release);
  }
  // try_push is push when a slot is free (owner only): false when the deque is full. was_empty
  // says whether no element was queued (a thief may have found it empty and gone to sleep).
  bool try_push(T* x, bool& was_empty) noexcept {
    // relaxed: bottom has one writer, this thread.
    const std::int64_t b = bottom.load(std::memory_order_relaxed);
    // acquire (invariant 3): reading a top advanced by a thief's CAS orders that thief's read of
    // the slot before our overwrite of it.
    const std::int64_t t = top.load(std::memory_order_acquire);
    if (b - t > mask) return false;
    was_empty = b <= t;
    push(x);
    return true;
  }
  // pop removes the bottom element (owner only); nullptr when empty or lost to a thief.
  T* pop() noexcept {
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
  // pop_last is pop with at most one element left (t >= b after bottom.exchange(b)).
  T* pop_last(std::int64_t b, std::int64_t t) noexcept {
    T* x = nullptr;
    if (t == b) {
      // relaxed: we pushed this slot ourselves; a thief only reads it, never writes it.
      x = buffer[b & mask].load(std::memory_order_relaxed);
      // seq_cst: the same RMW on top as the thieves' CAS, so exactly one of us takes slot b.
      // Failure relaxed: a thief took it; we only drop x.
      if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                       std::memory_order_relaxed)) {
        x = nullptr;
      }
    }
    // relaxed (as Lê et al.'s take): top >= b+1 is already decided, so a thief that reads this
    // value with a stale top fails its CAS; the next push's release store republishes bottom.
    bottom.store(b + 1, std::memory_order_relaxed);
    return x;
  }
  // steal removes the top element (any thread); nullptr when empty or when another took it.
  T* steal() noexcept {
    // seq_cst: top is read before bottom in the total order (Lê et al.'s second fence), so a
    // concurrent pop either sees our later CAS or we see its decremented bottom (invariant 1).
    std::int64_t t = top.load(std::memory_order_seq_cst);
    // seq_cst (⊇ acquire): pairs with push's release store of bottom; we see slot t and *x.
    const std::int64_t b = bottom.load(std::memory_order_seq_cst);
    if (t >= b) return nullptr;
    // relaxed: ordered by the acquire above; a stale value only matters if the CAS wins, and a
    // winning CAS means slot t was not reused (invariant 3).
    T* x = buffer[t & mask].load(std::memory_order_relaxed);
    // seq_cst: the one RMW that decides slot t against other thieves and pop_last's CAS.
    // Failure relaxed: another thread took slot t; we return nothing and read nothing else.
    if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                     std::memory_order_relaxed)) {
      return nullptr;
    }
    return x;
  }

  // steal_if is steal for a thief that wants only some elements: it looks at the top element and
  // takes it only when pred(x) holds (nullptr otherwise, leaving it in place). pred runs before
  // the CAS, on an element another thread may have taken (and recycled) meanwhile: it must read
  // only atomics of *x and tolerate stale values; a winning CAS means x was the live top element
  // all along (invariant 3), so the caller may check x fully afterwards.
  template <class Pred>
  T* steal_if(Pred&& pred) noexcept {
    // seq_cst, both: as in steal.
    std::int64_t t = top.load(std::memory_order_seq_cst);
    const std::int64_t b = bottom.load(std::memory_order_seq_cst);
    if (t >= b) return nullptr;
    // relaxed: as in steal.
    T* x = buffer[t & mask].load(std::memory_order_relaxed);
    if (x == nullptr || !pred(static_cast<const T*>(x))) return nullptr;
    // seq_cst / relaxed: as in steal.
    if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                     std::memory_order_relaxed)) {
      return nullptr;
    }
    return x;
  }
};

}  // namespace rtpar::detail
