// lock_order.hpp — the global lock order of lock channels, checked per thread.
//
// OpenMP-RT §3.5: deadlock freedom comes from a total order over all shared data, with locks
// taken in that order and released in reverse. Each lock channel has a rank; each thread keeps a
// fixed-size stack of the locks it holds (thread-local, no allocation). Taking a lock whose rank
// is not strictly above the top of the stack is refused with LockOrderError *before* blocking, so
// an ordering bug surfaces as an error on its first occurrence instead of a rare deadlock. Equal
// ranks are refused too: two locks with one rank have no order, and one lock taken twice would
// self-deadlock.
#pragma once

#include <cstdint>

namespace rtpar {
class ByteChannel;
}

namespace rtpar::detail {

// held_by_this_thread says whether the calling thread holds `lock` (a lock channel).
bool held_by_this_thread(const ByteChannel* lock) noexcept;

// check_lock_order throws LockOrderError unless the calling thread may take `lock` now: its rank
// is above every held rank and the stack has room.
void check_lock_order(const ByteChannel* lock);

// push_held records that the calling thread now holds `lock` (after check_lock_order succeeded).
void push_held(const ByteChannel* lock) noexcept;

// pop_held records that the calling thread released `lock`.
void pop_held(const ByteChannel* lock) noexcept;

// next_auto_rank hands out ranks for channels created with lock_rank = -1: creation order,
// starting above every explicit rank (at kMaxExplicitLockRank).
std::int64_t next_auto_rank() noexcept;

}  // namespace rtpar::detail
