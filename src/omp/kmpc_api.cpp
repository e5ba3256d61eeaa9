// kmpc_api.cpp — where LLVM's ABI differs from GCC's for the omp_* API and its helpers: nest
// locks (an 8-byte handle), the ompc_* spellings of the affinity-format routines, and
// __kmpc_alloc/__kmpc_free (clang's allocate directive and depobj storage), __kmpc_init_allocator
// / __kmpc_destroy_allocator, and __kmpc_error (the `error` directive, on error.cpp).
//
// LLVM's omp.h (openmp/runtime/src/include/omp.h.var) declares omp_nest_lock_t as one pointer,
// 8 bytes, where GCC's is 16 (lock.cpp's NestLock); GCC-layout code would write past the
// program's variable. So libomp.so.5 binds the nest-lock routines to the rtpar_kmp_* ones here
// (cmake/omp_libomp_shim.cmake forwards `NAME` to `rtpar_kmp_NAME` when the runtime exports
// one), which keep a pointer to a GCC-layout lock made by omp_init_nest_lock and run lock.cpp's
// routines on it: one lock implementation. omp_lock_t is 8 bytes in LLVM's omp.h and 4 in GCC's:
// its first 4 bytes are the mutex word, as with GCC. The init routine allocates (as LLVM's does);
// setting and unsetting does not.
#include <new>

#include "omp/kmpc.hpp"

// lock.cpp's routines on a GCC-layout omp_nest_lock_t (their OMP_3.0 versions).
extern "C" {
void omp_init_nest_lock_30(void* lock);
void omp_destroy_nest_lock_30(void* lock);
void omp_set_nest_lock_30(void* lock);
void omp_unset_nest_lock_30(void* lock);
int omp_test_nest_lock_30(void* lock);
void omp_set_affinity_format(const char* format);
std::size_t omp_get_affinity_format(char* buf, std::size_t size);
void omp_display_affinity(const char* format);
std::size_t omp_capture_affinity(char* buf, std::size_t size, const char* format);
void* omp_alloc(std::size_t size, std::uintptr_t handle);
void* omp_aligned_alloc(std::size_t alignment, std::size_t size, std::uintptr_t handle);
void omp_free(void* ptr, std::uintptr_t handle);
std::uintptr_t omp_init_allocator(std::uintptr_t memspace, int ntraits, const void* traits);
void omp_destroy_allocator(std::uintptr_t handle);
void GOMP_warning(const char* msg, std::size_t msglen);
void GOMP_error(const char* msg, std::size_t msglen);
}

namespace rtpar::omp::kmpc {

namespace {

// GompNestLock is storage for a GCC-layout nest lock (16 bytes, 8-aligned).
struct alignas(8) GompNestLock {
  unsigned char bytes[16];
};

// gomp_of is the GCC-layout lock an LLVM nest-lock handle points to.
void* gomp_of(void** lock) noexcept { return *lock; }

}  // namespace

// rtpar_kmp_omp_init_nest_lock is omp_init_nest_lock for LLVM's 8-byte omp_nest_lock_t.
RTPAR_OMP_EXPORT void rtpar_kmp_omp_init_nest_lock(void** lock) {
  auto* l = new GompNestLock{};
  omp_init_nest_lock_30(l);
  *lock = l;
}

// rtpar_kmp_omp_init_nest_lock_with_hint is omp_init_nest_lock_with_hint for it (hint ignored).
RTPAR_OMP_EXPORT void rtpar_kmp_omp_init_nest_lock_with_hint(void** lock, int /*hint*/) {
  rtpar_kmp_omp_init_nest_lock(lock);
}

// rtpar_kmp_omp_destroy_nest_lock is omp_destroy_nest_lock for it.
RTPAR_OMP_EXPORT void rtpar_kmp_omp_destroy_nest_lock(void** lock) {
  omp_destroy_nest_lock_30(gomp_of(lock));
  delete static_cast<GompNestLock*>(gomp_of(lock));
  *lock = nullptr;
}

// rtpar_kmp_omp_set_nest_lock is omp_set_nest_lock for it.
RTPAR_OMP_EXPORT void rtpar_kmp_omp_set_nest_lock(void** lock) {
  omp_set_nest_lock_30(gomp_of(lock));
}

// rtpar_kmp_omp_unset_nest_lock is omp_unset_nest_lock for it.
RTPAR_OMP_EXPORT void rtpar_kmp_omp_unset_nest_lock(void** lock) {
  omp_unset_nest_lock_30(gomp_of(lock));
}

// rtpar_kmp_omp_test_nest_lock is omp_test_nest_lock for it.
RTPAR_OMP_EXPORT int rtpar_kmp_omp_test_nest_lock(void** lock) {
  return omp_test_nest_lock_30(gomp_of(lock));
}

// rtpar_kmp_ompc_set_affinity_format is LLVM's ompc_set_affinity_format (its omp.h maps
// omp_set_affinity_format to it).
RTPAR_OMP_EXPORT void rtpar_kmp_ompc_set_affinity_format(const char* format) {
  omp_set_affinity_format(format);
}

// rtpar_kmp_ompc_get_affinity_format is LLVM's ompc_get_affinity_format.
RTPAR_OMP_EXPORT std::size_t rtpar_kmp_ompc_get_affinity_format(char* buf, std::size_t size) {
  return omp_get_affinity_format(buf, size);
}

// rtpar_kmp_ompc_display_affinity is LLVM's ompc_display_affinity.
RTPAR_OMP_EXPORT void rtpar_kmp_ompc_display_affinity(const char* format) {
  omp_display_affinity(format);
}

// rtpar_kmp_ompc_capture_affinity is LLVM's ompc_capture_affinity.
RTPAR_OMP_EXPORT std::size_t rtpar_kmp_ompc_capture_affinity(char* buf, std::size_t size,
                                                             const char* format) {
  return omp_capture_affinity(buf, size, format);
}

// __kmpc_alloc is omp_alloc for clang's allocate directive and depobj storage.
RTPAR_OMP_EXPORT void* __kmpc_alloc(kmp_int32 /*gtid*/, std::size_t size,
                                    std::uintptr_t allocator) {
  return omp_alloc(size, allocator);
}

// __kmpc_aligned_alloc is omp_aligned_alloc for the allocate directive's align clause.
RTPAR_OMP_EXPORT void* __kmpc_aligned_alloc(kmp_int32 /*gtid*/, std::size_t align, std::size_t size,
                                            std::uintptr_t allocator) {
  return omp_aligned_alloc(align, size, allocator);
}

// __kmpc_init_allocator is omp_init_allocator (clang's `uses_allocators` with traits).
RTPAR_OMP_EXPORT std::uintptr_t __kmpc_init_allocator(kmp_int32 /*gtid*/, std::uintptr_t memspace,
                                                      int ntraits, const void* traits) {
  return omp_init_allocator(memspace, ntraits, traits);
}

// __kmpc_destroy_allocator is omp_destroy_allocator.
RTPAR_OMP_EXPORT void __kmpc_destroy_allocator(kmp_int32 /*gtid*/, std::uintptr_t allocator) {
  omp_destroy_allocator(allocator);
}

// __kmpc_error is the `error` directive at execution time: severity 1 (warning) reports and
// continues, 2 (fatal) reports and exits with status 1 (error.cpp's GOMP_warning / GOMP_error).
RTPAR_OMP_EXPORT void __kmpc_error(ident* /*loc*/, int severity, const char* message) {
  if (severity == 2) GOMP_error(message, static_cast<std::size_t>(-1));
  GOMP_warning(message, static_cast<std::size_t>(-1));
}

// __kmpc_free is omp_free.
RTPAR_OMP_EXPORT void __kmpc_free(kmp_int32 /*gtid*/, void* ptr, std::uintptr_t allocator) {
  omp_free(ptr, allocator);
}

}  // namespace rtpar::omp::kmpc
