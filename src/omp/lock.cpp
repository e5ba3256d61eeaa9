// lock.cpp — the OpenMP lock routines (OpenMP 5.1 §3.9) on the futex-word mutex (mutex.hpp).
//
// Layouts are GCC's omp.h: omp_lock_t is 4 bytes (the mutex word itself) and omp_nest_lock_t is
// 16 bytes {word, count, owner}. A nestable lock is owned by a TASK (OpenMP ≥ 3.0): owner is the
// Task the holder runs, so an undeferred child task cannot re-enter its parent's lock.
//
// Symbol versions: the OMP_3.0 versions are the default (libgomp.map); GCC before 4.4 bound the
// same names at OMP_1.0, where simple locks were identical and nestable locks were 8 bytes
// {owner thread, count} owned by the thread. The *_10 functions keep those old binaries working.
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <ctime>

#include "omp/mutex.hpp"
#include "omp/runtime.hpp"
#include "platform/futex.hpp"
#include "platform/spin_wait.hpp"

namespace rtpar::omp {

namespace {

// as_atomic views a lock's 32-bit word as the std::atomic the futex wrappers take (same size and
// representation: std::atomic<std::uint32_t> is a plain 32-bit word on every ABI rtpar targets).
std::atomic<std::uint32_t>& as_atomic(std::uint32_t* word) noexcept {
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
  return *reinterpret_cast<std::atomic<std::uint32_t>*>(word);
}

// NestLock is omp_nest_lock_t's storage (GCC's omp.h: 16 bytes, 8-aligned).
struct NestLock {
  std::uint32_t word;  // the mutex (mutex.hpp)
  int count;           // nesting depth; written only by the owner
  void* owner;         // the owning Task (nullptr when free)
};
static_assert(sizeof(NestLock) == 16);

// NestLock10 is the OMP_1.0 omp_nest_lock_t (8 bytes): owner is the holding thread's id and
// also the mutex word (0 free).
struct NestLock10 {
  std::uint32_t owner;
  int count;
};
static_assert(sizeof(NestLock10) == 8);

// owner_of reads a nest lock's owner. relaxed: a thread only compares it with its own task; it
// can equal that task only if this thread stored it (program order), and no other thread stores
// into owner while this thread holds the lock.
void* owner_of(NestLock* l) noexcept {
  return std::atomic_ref<void*>(l->owner).load(std::memory_order_relaxed);
}

// set_owner writes a nest lock's owner (relaxed: see owner_of; the mutex orders everything else).
void set_owner(NestLock* l, void* owner) noexcept {
  std::atomic_ref<void*>(l->owner).store(owner, std::memory_order_relaxed);
}

// thread_id is a nonzero number unique to the calling thread (its kernel tid).
std::uint32_t thread_id() noexcept {
  static thread_local std::uint32_t id = static_cast<std::uint32_t>(syscall(SYS_gettid));
  return id;
}

}  // namespace

void word_lock_slow(std::uint32_t* word) noexcept {
  std::atomic_ref<std::uint32_t> w(*word);
  // Spin per the team's wait policy before sleeping, as barriers do: a holder usually releases
  // within a short critical section, and a waiter that slept would cost every later unlock a
  // futex_wake (EPCC CRITICAL with a fixed 200-pause spin: 1.7-2x libgomp's overhead). The team's
  // policy never spins when the team is oversubscribed (parallel.cpp), so a spinning waiter never
  // holds the CPU its holder needs.
  const detail::WaitSpec& wait = self().team->wait;
  if (wait.kind != WaitKind::block) {
    const std::int64_t budget = wait.kind == WaitKind::spin ? detail::kSpinForever : wait.spin_ns;
    const bool got = detail::spin_until(
        [&] {
          std::uint32_t expected = 0;
          // relaxed load first (no cache-line ping-pong while held); acquire on the 0→1 step
          // "lock".
          return w.load(std::memory_order_relaxed) == 0 &&
                 w.compare_exchange_weak(expected, 1, std::memory_order_acquire,
                                         std::memory_order_relaxed);
        },
        budget);
    if (got) return;
  }
  // acquire, step "lock with sleepers": storing 2 announces a sleeper to word_unlock; getting 0
  // back means the lock was free and is now ours (in state 2, which costs at most one spare
  // wake-up on unlock).
  while (w.exchange(2, std::memory_order_acquire) != 0) detail::futex_wait(as_atomic(word), 2);
}

void word_unlock_wake(std::uint32_t* word) noexcept { detail::futex_wake(as_atomic(word), 1); }

// ---- simple locks ----

// omp_init_lock_30 (omp_init_lock@@OMP_3.0) makes a lock free.
RTPAR_OMP_EXPORT void omp_init_lock_30(std::uint32_t* lock) { *lock = 0; }

// omp_init_lock_with_hint is omp_init_lock (hints are advice; rtpar's lock has one form).
RTPAR_OMP_EXPORT void omp_init_lock_with_hint(std::uint32_t* lock, int /*hint*/) { *lock = 0; }

// omp_destroy_lock_30 (omp_destroy_lock@@OMP_3.0) ends a lock's life (nothing to free).
RTPAR_OMP_EXPORT void omp_destroy_lock_30(std::uint32_t* /*lock*/) {}

// omp_set_lock_30 (omp_set_lock@@OMP_3.0) waits until the lock is free and takes it.
RTPAR_OMP_EXPORT void omp_set_lock_30(std::uint32_t* lock) { word_lock(lock); }

// omp_unset_lock_30 (omp_unset_lock@@OMP_3.0) releases the lock.
RTPAR_OMP_EXPORT void omp_unset_lock_30(std::uint32_t* lock) { word_unlock(lock); }

// omp_test_lock_30 (omp_test_lock@@OMP_3.0) takes the lock if it is free; returns 1 if it did.
RTPAR_OMP_EXPORT int omp_test_lock_30(std::uint32_t* lock) { return word_trylock(lock) ? 1 : 0; }

// ---- nestable locks (owned by the task) ----

// omp_init_nest_lock_30 (omp_init_nest_lock@@OMP_3.0) makes a nestable lock free.
RTPAR_OMP_EXPORT void omp_init_nest_lock_30(NestLock* lock) {
  lock->word = 0;
  lock->count = 0;
  lock->owner = nullptr;
}

// omp_init_nest_lock_with_hint is omp_init_nest_lock.
RTPAR_OMP_EXPORT void omp_init_nest_lock_with_hint(NestLock* lock, int /*hint*/) {
  omp_init_nest_lock_30(lock);
}

// omp_destroy_nest_lock_30 (omp_destroy_nest_lock@@OMP_3.0) ends a nestable lock's life (nothing to
// free).
RTPAR_OMP_EXPORT void omp_destroy_nest_lock_30(NestLock* /*lock*/) {}

// omp_set_nest_lock_30 (omp_set_nest_lock@@OMP_3.0) takes the lock, or nests once more if the
// calling task holds it.
RTPAR_OMP_EXPORT void omp_set_nest_lock_30(NestLock* lock) {
  void* me = self().task;
  if (owner_of(lock) != me) {
    word_lock(&lock->word);
    set_owner(lock, me);
    lock->count = 0;
  }
  ++lock->count;
}

// omp_unset_nest_lock_30 (omp_unset_nest_lock@@OMP_3.0) drops one nesting level, releasing the lock
// at the last.
RTPAR_OMP_EXPORT void omp_unset_nest_lock_30(NestLock* lock) {
  if (--lock->count == 0) {
    set_owner(lock, nullptr);
    word_unlock(&lock->word);
  }
}

// omp_test_nest_lock_30 (omp_test_nest_lock@@OMP_3.0) nests or takes the lock without waiting;
// returns the new nesting count, or 0 if another task holds it.
RTPAR_OMP_EXPORT int omp_test_nest_lock_30(NestLock* lock) {
  void* me = self().task;
  if (owner_of(lock) != me) {
    if (!word_trylock(&lock->word)) return 0;
    set_owner(lock, me);
    lock->count = 0;
  }
  return ++lock->count;
}

// ---- OMP_1.0 versions (pre-4.4 GCC binaries) ----

// omp_init_lock_10 … omp_test_lock_10 are the simple locks at OMP_1.0 (same layout).
RTPAR_OMP_EXPORT void omp_init_lock_10(std::uint32_t* lock) { *lock = 0; }
RTPAR_OMP_EXPORT void omp_destroy_lock_10(std::uint32_t* /*lock*/) {}
RTPAR_OMP_EXPORT void omp_set_lock_10(std::uint32_t* lock) { word_lock(lock); }
RTPAR_OMP_EXPORT void omp_unset_lock_10(std::uint32_t* lock) { word_unlock(lock); }
RTPAR_OMP_EXPORT int omp_test_lock_10(std::uint32_t* lock) { return word_trylock(lock) ? 1 : 0; }

// omp_init_nest_lock_10 … omp_test_nest_lock_10 are the 8-byte thread-owned nestable locks.
RTPAR_OMP_EXPORT void omp_init_nest_lock_10(NestLock10* lock) {
  lock->owner = 0;
  lock->count = 0;
}
RTPAR_OMP_EXPORT void omp_destroy_nest_lock_10(NestLock10* /*lock*/) {}
RTPAR_OMP_EXPORT int omp_test_nest_lock_10(NestLock10* lock) {
  const std::uint32_t me = thread_id();
  std::atomic_ref<std::uint32_t> owner(lock->owner);
  std::uint32_t expected = 0;
  // acquire, step "lock": 0 → my id takes the lock; finding my id means I hold it already.
  if (owner.compare_exchange_strong(expected, me, std::memory_order_acquire,
                                    std::memory_order_relaxed)) {
    lock->count = 1;
    return 1;
  }
  return expected == me ? ++lock->count : 0;
}
RTPAR_OMP_EXPORT void omp_set_nest_lock_10(NestLock10* lock) {
  while (omp_test_nest_lock_10(lock) == 0) {
    // relaxed: only a hint of the current owner to sleep on; the CAS above re-checks.
    const std::uint32_t seen =
        std::atomic_ref<std::uint32_t>(lock->owner).load(std::memory_order_relaxed);
    if (seen != 0) detail::futex_wait(as_atomic(&lock->owner), seen);
  }
}
RTPAR_OMP_EXPORT void omp_unset_nest_lock_10(NestLock10* lock) {
  if (--lock->count == 0) {
    // release, step "unlock": publishes the critical section to the next CAS; then wake all
    // sleepers (they sleep on the old owner's id, so each must re-check).
    std::atomic_ref<std::uint32_t>(lock->owner).store(0, std::memory_order_release);
    detail::futex_wake(as_atomic(&lock->owner), INT32_MAX);
  }
}

__asm__(".symver omp_init_lock_30, omp_init_lock@@OMP_3.0");
__asm__(".symver omp_destroy_lock_30, omp_destroy_lock@@OMP_3.0");
__asm__(".symver omp_set_lock_30, omp_set_lock@@OMP_3.0");
__asm__(".symver omp_unset_lock_30, omp_unset_lock@@OMP_3.0");
__asm__(".symver omp_test_lock_30, omp_test_lock@@OMP_3.0");
__asm__(".symver omp_init_nest_lock_30, omp_init_nest_lock@@OMP_3.0");
__asm__(".symver omp_destroy_nest_lock_30, omp_destroy_nest_lock@@OMP_3.0");
__asm__(".symver omp_set_nest_lock_30, omp_set_nest_lock@@OMP_3.0");
__asm__(".symver omp_unset_nest_lock_30, omp_unset_nest_lock@@OMP_3.0");
__asm__(".symver omp_test_nest_lock_30, omp_test_nest_lock@@OMP_3.0");
__asm__(".symver omp_init_lock_10, omp_init_lock@OMP_1.0");
__asm__(".symver omp_destroy_lock_10, omp_destroy_lock@OMP_1.0");
__asm__(".symver omp_set_lock_10, omp_set_lock@OMP_1.0");
__asm__(".symver omp_unset_lock_10, omp_unset_lock@OMP_1.0");
__asm__(".symver omp_test_lock_10, omp_test_lock@OMP_1.0");
__asm__(".symver omp_init_nest_lock_10, omp_init_nest_lock@OMP_1.0");
__asm__(".symver omp_destroy_nest_lock_10, omp_destroy_nest_lock@OMP_1.0");
__asm__(".symver omp_set_nest_lock_10, omp_set_nest_lock@OMP_1.0");
__asm__(".symver omp_unset_nest_lock_10, omp_unset_nest_lock@OMP_1.0");
__asm__(".symver omp_test_nest_lock_10, omp_test_nest_lock@OMP_1.0");

}  // namespace rtpar::omp
