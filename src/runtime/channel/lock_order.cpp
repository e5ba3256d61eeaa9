// lock_order.cpp — the per-thread held-lock stack behind the global lock order (lock_order.hpp).
#include "runtime/channel/lock_order.hpp"

#include <atomic>
#include <string>

#include "rtpar/channel.hpp"

namespace rtpar::detail {

namespace {

// Held is the calling thread's stack of held lock channels, bottom first. A plain thread_local
// array: no allocation, no synchronisation (only its own thread touches it).
struct Held {
  const ByteChannel* locks[kMaxHeldChannelLocks] = {};
  int count = 0;
};
thread_local Held t_held;

std::string describe(const ByteChannel* lock) {
  const std::string name = lock->name().empty() ? "<unnamed>" : lock->name();
  return "channel '" + name + "' (rank " + std::to_string(lock->config().lock_rank) + ")";
}

}  // namespace

bool held_by_this_thread(const ByteChannel* lock) noexcept {
  for (int i = t_held.count - 1; i >= 0; --i) {
    if (t_held.locks[i] == lock) return true;
  }
  return false;
}

void check_lock_order(const ByteChannel* lock) {
  if (t_held.count == 0) return;
  const ByteChannel* top = t_held.locks[t_held.count - 1];
  if (top == lock) {
    throw LockOrderError("lock order violated: " + describe(lock) +
                         " is already held by this thread (ChannelHold taken twice)");
  }
  if (top->config().lock_rank >= lock->config().lock_rank) {
    throw LockOrderError("lock order violated: taking " + describe(lock) + " while holding " +
                         describe(top) + "; channel locks must be taken in increasing rank");
  }
  if (t_held.count == kMaxHeldChannelLocks) {
    throw LockOrderError("more than " + std::to_string(kMaxHeldChannelLocks) +
                         " channel locks held by one thread, taking " + describe(lock));
  }
}

void push_held(const ByteChannel* lock) noexcept { t_held.locks[t_held.count++] = lock; }

void pop_held(const ByteChannel* lock) noexcept {
  // Holds are scoped (ChannelHold cannot move), so this is the top; search anyway to stay exact.
  for (int i = t_held.count - 1; i >= 0; --i) {
    if (t_held.locks[i] != lock) continue;
    for (int k = i; k + 1 < t_held.count; ++k) t_held.locks[k] = t_held.locks[k + 1];
    --t_held.count;
    return;
  }
}

std::int64_t next_auto_rank() noexcept {
  static std::atomic<std::int64_t> next{kMaxExplicitLockRank};
  // relaxed: uniqueness comes from the RMW alone; the rank orders no other memory.
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace rtpar::detail
