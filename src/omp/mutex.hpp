// mutex.hpp — the futex-word mutex behind omp_lock_t, omp_nest_lock_t, critical and the atomic
// fallback: a 32-bit word in the caller's storage, 0 free, 1 held, 2 held with (possible)
// sleepers. An uncontended lock or unlock is one atomic read-modify-write and no system call;
// a contended lock spins briefly, then sleeps on the word (futex). Used by lock.cpp, critical.cpp
// and affinity.cpp.
#pragma once

#include <atomic>
#include <cstdint>

namespace rtpar::omp {

// word_lock_slow is the contended part of word_lock (lock.cpp).
void word_lock_slow(std::uint32_t* word) noexcept;

// word_unlock_wake wakes one sleeper of a word just released from state 2 (lock.cpp).
void word_unlock_wake(std::uint32_t* word) noexcept;

// word_lock acquires the mutex in *word.
inline void word_lock(std::uint32_t* word) noexcept {
  std::uint32_t expected = 0;
  // acquire, step "lock": a successful 0→1 orders the critical section after the previous
  // holder's release in word_unlock.
  if (__builtin_expect(std::atomic_ref<std::uint32_t>(*word).compare_exchange_strong(
                           expected, 1, std::memory_order_acquire, std::memory_order_relaxed),
                       1)) {
    return;
  }
  word_lock_slow(word);
}

// word_trylock acquires the mutex in *word if it is free; says whether it did.
inline bool word_trylock(std::uint32_t* word) noexcept {
  std::uint32_t expected = 0;
  // acquire, step "lock" (as word_lock); relaxed on failure: nothing was acquired.
  return std::atomic_ref<std::uint32_t>(*word).compare_exchange_strong(
      expected, 1, std::memory_order_acquire, std::memory_order_relaxed);
}

// word_unlock releases the mutex in *word, waking one sleeper if there may be one.
inline void word_unlock(std::uint32_t* word) noexcept {
  // release, step "unlock": publishes the critical section to the next holder's acquire; the
  // exchange returns 2 when a waiter announced itself (word_lock_slow), which must be woken.
  if (__builtin_expect(
          std::atomic_ref<std::uint32_t>(*word).exchange(0, std::memory_order_release) == 2, 0)) {
    word_unlock_wake(word);
  }
}

}  // namespace rtpar::omp
