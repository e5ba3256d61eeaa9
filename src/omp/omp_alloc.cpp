// omp_alloc.cpp — memory allocators (OpenMP 5.1 §2.13, §3.13) and GOMP_alloc/GOMP_free (the
// `allocate` directive and clause). Every memory space is ordinary host memory (malloc); an
// allocator adds alignment, a pool-size budget and a fallback. Each block carries a header just
// below the address handed out, so omp_free and omp_realloc need no lookup. A pool is charged
// each block's whole footprint (header and alignment slack included), as LLVM's allocator does:
// a pool of 2 MiB does not hold two blocks of 1 MiB.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// Trait keys and values (omp.h).
constexpr std::uintptr_t kAtkAlignment = 2, kAtkPoolSize = 4, kAtkFallback = 5, kAtkFbData = 6;
constexpr std::uintptr_t kAtkFirst = 1, kAtkLast = 8;
constexpr std::uintptr_t kDefaultMemFb = 11, kNullFb = 12, kAbortFb = 13, kAllocatorFb = 14;
constexpr std::uintptr_t kAtvDefault = ~std::uintptr_t{0};
// kPredefinedLast is the largest predefined allocator handle (omp_thread_mem_alloc).
constexpr std::uintptr_t kPredefinedLast = 8;
// kMinAlign is the alignment every block has at least (malloc's).
constexpr std::size_t kMinAlign = 16;

// Allocator is what omp_init_allocator returns (its address is the handle).
struct Allocator {
  std::size_t alignment = 1;
  std::size_t pool_size = SIZE_MAX;  // budget in bytes (SIZE_MAX: unlimited)
  std::uintptr_t fallback = kDefaultMemFb;
  std::uintptr_t fb_data = 0;        // the fallback allocator for allocator_fb
  std::atomic<std::size_t> used{0};  // bytes allocated from the pool
};

// Trait is omp_alloctrait_t: an enum key (int-sized, then padding) and a value.
struct Trait {
  int key;
  std::uintptr_t value;
};

// Header sits just below every block: what omp_free / omp_realloc need.
struct alignas(kMinAlign) Header {
  void* base;             // what malloc returned
  std::size_t size;       // the size requested
  std::uintptr_t handle;  // the allocator that allocated it
  std::size_t charged;    // bytes charged to the allocator's pool (0: none): the footprint
};

// current_default is the calling task's def-allocator-var.
std::uintptr_t current_default() noexcept {
  const std::uintptr_t v = self().task->icv.def_allocator;
  return v != 0 ? v : static_cast<std::uintptr_t>(globals().default_allocator);
}

// user is the Allocator behind a handle, or nullptr for a predefined one.
Allocator* user(std::uintptr_t handle) noexcept {
  return handle > kPredefinedLast ? reinterpret_cast<Allocator*>(handle) : nullptr;
}

// allocate tries one allocator, following its fallback chain on failure; a pool is charged the
// block's footprint (what malloc is asked for). `credit` is what the block being resized
// (omp_realloc) holds of this allocator's pool: only the growth beyond it is charged, as a
// realloc in place would; *credit_used says whether the new block took it over.
void* allocate(std::size_t align, std::size_t size, std::uintptr_t handle, int depth = 0,
               std::size_t credit = 0, bool* credit_used = nullptr) {
  if (handle == 0) handle = current_default();
  if (size == 0) return nullptr;
  Allocator* a = user(handle);
  align = std::max({align, kMinAlign, a != nullptr ? a->alignment : std::size_t{1}});
  if ((align & (align - 1)) != 0) return nullptr;
  void* block = nullptr;
  std::size_t charged = 0;
  const std::size_t total = sizeof(Header) + align + size;
  if (total > size) {  // no overflow
    bool within = true;
    if (a != nullptr && a->pool_size != SIZE_MAX) {
      charged = total;
      const std::size_t extra = total > credit ? total - credit : 0;
      // relaxed, step "charge the pool": a byte budget; no other data is published by it.
      const std::size_t before = a->used.fetch_add(extra, std::memory_order_relaxed);
      if (before + extra > a->pool_size || before + extra < before) {
        a->used.fetch_sub(extra, std::memory_order_relaxed);  // relaxed: undo the charge
        within = false;
      }
    }
    if (within) {
      void* base = std::malloc(total);
      if (base != nullptr) {
        auto addr = reinterpret_cast<std::uintptr_t>(base) + sizeof(Header);
        addr = (addr + align - 1) & ~(align - 1);
        block = reinterpret_cast<void*>(addr);
        *(reinterpret_cast<Header*>(addr) - 1) = Header{base, size, handle, charged};
      } else if (charged != 0) {
        // relaxed: undo the charge
        a->used.fetch_sub(total > credit ? total - credit : 0, std::memory_order_relaxed);
      }
    }
  }
  if (block != nullptr && credit_used != nullptr) *credit_used = charged != 0 && credit != 0;
  if (block != nullptr || a == nullptr || depth > 8) return block;
  switch (a->fallback) {
    case kNullFb:
      return nullptr;
    case kAbortFb:
      std::fprintf(stderr, "rtpar-omp: out of memory allocating %zu bytes (abort_fb)\n", size);
      std::abort();
    case kAllocatorFb:
      return allocate(align, size, a->fb_data, depth + 1);
    default:
      return allocate(align, size, 1, depth + 1);  // default_mem_fb
  }
}

// header_of is the header of a block handed out by allocate.
Header* header_of(void* ptr) noexcept { return static_cast<Header*>(ptr) - 1; }

}  // namespace

// omp_init_allocator makes an allocator in a memory space with traits; omp_null_allocator when
// a trait is unknown or invalid.
RTPAR_OMP_EXPORT std::uintptr_t omp_init_allocator(std::uintptr_t memspace, int ntraits,
                                                   const Trait* traits) {
  if (memspace > 4) return 0;
  Allocator proto;
  for (int i = 0; i < ntraits; ++i) {
    const auto key = static_cast<std::uintptr_t>(traits[i].key);
    const std::uintptr_t value = traits[i].value;
    if (key < kAtkFirst || key > kAtkLast) return 0;
    if (value == kAtvDefault) continue;
    switch (key) {
      case kAtkAlignment:
        if (value == 0 || (value & (value - 1)) != 0) return 0;
        proto.alignment = value;
        break;
      case kAtkPoolSize:
        proto.pool_size = value;
        break;
      case kAtkFallback:
        if (value < kDefaultMemFb || value > kAllocatorFb) return 0;
        proto.fallback = value;
        break;
      case kAtkFbData:
        proto.fb_data = value;
        break;
      default:
        break;  // sync_hint, access, pinned, partition: advice for host memory
    }
  }
  if (proto.fallback == kAllocatorFb && proto.fb_data == 0) return 0;
  auto* a = new (std::nothrow) Allocator;
  if (a == nullptr) return 0;
  a->alignment = proto.alignment;
  a->pool_size = proto.pool_size;
  a->fallback = proto.fallback;
  a->fb_data = proto.fb_data;
  return reinterpret_cast<std::uintptr_t>(a);
}

// omp_destroy_allocator frees an allocator made by omp_init_allocator.
RTPAR_OMP_EXPORT void omp_destroy_allocator(std::uintptr_t handle) { delete user(handle); }

// omp_set_default_allocator sets the calling task's def-allocator-var.
RTPAR_OMP_EXPORT void omp_set_default_allocator(std::uintptr_t handle) {
  if (handle != 0) writable_icvs(self()).def_allocator = handle;
}

// omp_get_default_allocator reads the calling task's def-allocator-var.
RTPAR_OMP_EXPORT std::uintptr_t omp_get_default_allocator() { return current_default(); }

// omp_aligned_alloc allocates size bytes aligned to `alignment` (a power of two).
RTPAR_OMP_EXPORT void* omp_aligned_alloc(std::size_t alignment, std::size_t size,
                                         std::uintptr_t handle) {
  return allocate(alignment, size, handle);
}

// omp_alloc allocates size bytes.
RTPAR_OMP_EXPORT void* omp_alloc(std::size_t size, std::uintptr_t handle) {
  return allocate(1, size, handle);
}

// omp_aligned_calloc allocates nmemb·size zeroed bytes aligned to `alignment`.
RTPAR_OMP_EXPORT void* omp_aligned_calloc(std::size_t alignment, std::size_t nmemb,
                                          std::size_t size, std::uintptr_t handle) {
  if (size != 0 && nmemb > SIZE_MAX / size) return nullptr;
  void* p = allocate(alignment, nmemb * size, handle);
  if (p != nullptr) std::memset(p, 0, nmemb * size);
  return p;
}

// omp_calloc allocates nmemb·size zeroed bytes.
RTPAR_OMP_EXPORT void* omp_calloc(std::size_t nmemb, std::size_t size, std::uintptr_t handle) {
  return omp_aligned_calloc(1, nmemb, size, handle);
}

// omp_free frees a block of omp_alloc & co (the allocator argument is not needed).
RTPAR_OMP_EXPORT void omp_free(void* ptr, std::uintptr_t /*handle*/) {
  if (ptr == nullptr) return;
  const Header h = *header_of(ptr);
  if (h.charged != 0) {
    // relaxed, step "refund the pool": see allocate.
    user(h.handle)->used.fetch_sub(h.charged, std::memory_order_relaxed);
  }
  std::free(h.base);
}

// omp_realloc resizes a block, possibly into another allocator (null: the block's own).
RTPAR_OMP_EXPORT void* omp_realloc(void* ptr, std::size_t size, std::uintptr_t handle,
                                   std::uintptr_t free_handle) {
  if (ptr == nullptr) return omp_alloc(size, handle);
  if (size == 0) {
    omp_free(ptr, free_handle);
    return nullptr;
  }
  const Header h = *header_of(ptr);
  if (handle == 0) handle = h.handle;
  // Resized within its own pool, the block's charge carries over (the new block is charged only
  // for its growth; the old one refunds only what the new one does not keep).
  const std::size_t credit = handle == h.handle ? h.charged : 0;
  bool credit_used = false;
  void* fresh = allocate(1, size, handle, 0, credit, &credit_used);
  if (fresh == nullptr) return nullptr;
  std::memcpy(fresh, ptr, std::min(size, h.size));
  if (credit_used) {
    const std::size_t now = header_of(fresh)->charged;
    const std::size_t refund = h.charged > now ? h.charged - now : 0;
    // relaxed, step "refund the pool": see allocate.
    if (refund != 0) user(h.handle)->used.fetch_sub(refund, std::memory_order_relaxed);
    std::free(h.base);
  } else {
    omp_free(ptr, free_handle);
  }
  return fresh;
}

// GOMP_alloc serves the `allocate` directive/clause: omp_aligned_alloc.
RTPAR_OMP_EXPORT void* GOMP_alloc(std::size_t alignment, std::size_t size, std::uintptr_t handle) {
  return allocate(alignment, size, handle);
}

// GOMP_free frees GOMP_alloc's blocks.
RTPAR_OMP_EXPORT void GOMP_free(void* ptr, std::uintptr_t handle) { omp_free(ptr, handle); }

}  // namespace rtpar::omp
