// task_arena.cpp — memory for task descriptors, argument copies and taskgroups: one region of
// RTPAR_OMP_TASK_ARENA bytes (globals().task_arena_bytes, default 64 MiB) reserved once per
// process on first use (mmap, MAP_NORESERVE: untouched pages cost nothing), carved into
// power-of-two blocks of 64 B .. 2 MiB.
//
// Every thread has a cache (ThreadState::task_local) with one free list per size class and a
// private chunk it carves new blocks from. A block records its owner cache; the owner frees into
// its local list without atomics; another thread pushes the block onto the owner's `remote` list
// (lock-free Treiber push), which the owner takes whole (exchange) when its local list is empty.
// Only the owner ever removes from `remote`, and it takes everything at once, so no ABA.
// The arena is never unmapped; caches of exited threads are leaked on purpose (their blocks may
// still be freed to them).
#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "omp/runtime.hpp"

namespace rtpar::omp::task_detail {

namespace {

// kClasses, kMinBlock, kChunk: the size classes and a thread's carving chunk.
constexpr int kClasses = 16;  // 64 B << 0 .. 64 B << 15 (2 MiB)
constexpr std::size_t kMinBlock = 64;
constexpr std::size_t kChunk = 256 * 1024;  // a thread's carving chunk

// FreeBlock is a free block's link in a free list.
struct FreeBlock {
  FreeBlock* next;
};

struct ThreadCache;

// Header precedes every block's payload (16 bytes keeps the payload 16-aligned).
struct alignas(16) Header {
  ThreadCache* owner;
  std::uint32_t cls;
};

// ThreadCache is one thread's free lists (local: owner only; remote: other threads push) and
// its carving chunk [cur, end).
struct ThreadCache {
  FreeBlock* local[kClasses] = {};
  std::atomic<FreeBlock*> remote[kClasses] = {};
  char* cur = nullptr;
  char* end = nullptr;
};

// arena_base, arena_size, arena_used, arena_once: the arena, its size, the carved offset, and
// its one-time reservation.
std::atomic<char*> arena_base{nullptr};
std::size_t arena_size = 0;
std::atomic<std::size_t> arena_used{0};
std::once_flag arena_once;

// arena_map reserves the arena (once per process).
void arena_map() {
  const std::size_t bytes = globals().task_arena_bytes;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return;  // every task then runs undeferred
  arena_size = bytes;
  // release: arena_size is visible to threads that acquire the base.
  arena_base.store(static_cast<char*>(p), std::memory_order_release);
}

// carve takes `bytes` from the arena (nullptr when exhausted).
char* carve(std::size_t bytes) {
  std::call_once(arena_once, arena_map);
  // acquire: pairs with arena_map's release store.
  char* base = arena_base.load(std::memory_order_acquire);
  if (base == nullptr) return nullptr;
  // relaxed: the offset only partitions the region; each part is then private to its taker.
  const std::size_t off = arena_used.fetch_add(bytes, std::memory_order_relaxed);
  if (off + bytes > arena_size) return nullptr;
  return base + off;
}

// cache returns the calling thread's cache, creating it on first use.
ThreadCache& cache(ThreadState& ts) {
  if (ts.task_local == nullptr) ts.task_local = new ThreadCache;  // once per thread
  return *static_cast<ThreadCache*>(ts.task_local);
}

// class_of is the size class of a block of `total` bytes (-1: too large).
int class_of(std::size_t total) {
  std::size_t b = kMinBlock;
  for (int c = 0; c < kClasses; ++c, b <<= 1) {
    if (total <= b) return c;
  }
  return -1;
}

}  // namespace

void* arena_alloc(ThreadState& ts, std::size_t bytes) noexcept {
  const int cls = class_of(bytes + sizeof(Header));
  if (cls < 0) return nullptr;
  ThreadCache& c = cache(ts);
  FreeBlock* b = c.local[cls];
  if (__builtin_expect(b == nullptr, 0)) {
    // acquire: the pushers' release CAS published the blocks' (free) state.
    b = c.remote[cls].exchange(nullptr, std::memory_order_acquire);
  }
  if (b != nullptr) {
    c.local[cls] = b->next;
    Header* h = reinterpret_cast<Header*>(b);
    h->owner = &c;
    h->cls = static_cast<std::uint32_t>(cls);
    return h + 1;
  }
  const std::size_t size = kMinBlock << cls;
  if (c.cur == nullptr || static_cast<std::size_t>(c.end - c.cur) < size) {
    const std::size_t chunk = size > kChunk ? size : kChunk;
    char* p = carve(chunk);
    if (p == nullptr) return nullptr;
    c.cur = p;
    c.end = p + chunk;
  }
  Header* h = reinterpret_cast<Header*>(c.cur);
  c.cur += size;
  h->owner = &c;
  h->cls = static_cast<std::uint32_t>(cls);
  return h + 1;
}

void arena_free(ThreadState& ts, void* p) noexcept {
  Header* h = static_cast<Header*>(p) - 1;
  ThreadCache* owner = h->owner;
  const std::uint32_t cls = h->cls;
  FreeBlock* b = reinterpret_cast<FreeBlock*>(h);
  if (owner == static_cast<ThreadCache*>(ts.task_local)) {
    b->next = owner->local[cls];
    owner->local[cls] = b;
    return;
  }
  // relaxed load, release CAS: the block's contents (our last writes) are published to the
  // owner's acquire exchange.
  FreeBlock* head = owner->remote[cls].load(std::memory_order_relaxed);
  do {
    b->next = head;
  } while (!owner->remote[cls].compare_exchange_weak(head, b, std::memory_order_release,
                                                     std::memory_order_relaxed));
}

}  // namespace rtpar::omp::task_detail
