// critical.cpp — `critical` and the `atomic` fallback (OpenMP 5.1 §2.19.1, §2.19.7).
//
// Unnamed critical regions share one process-wide mutex word; each named region has its own:
// GCC passes `&.gomp_critical_user_NAME`, a zero-initialised pointer-sized common symbol shared by
// every translation unit using the name, and the first 4 bytes of it are the mutex word itself
// (mutex.hpp), so a named region needs no allocation and no registry. The atomic fallback (long
// double, complex or array reductions, …) is one more process-wide word, distinct from critical's
// so that an atomic inside a critical region cannot deadlock.
#include <cstdint>

#include "omp/mutex.hpp"
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// critical_word is the mutex of every unnamed critical region (alone on its cache line).
alignas(64) std::uint32_t critical_word = 0;

// atomic_word is the mutex of GOMP_atomic_start/end (alone on its cache line).
alignas(64) std::uint32_t atomic_word = 0;

// name_word is the mutex word inside a named region's pointer-sized variable.
std::uint32_t* name_word(void** name) noexcept { return reinterpret_cast<std::uint32_t*>(name); }

}  // namespace

// GOMP_critical_start enters the unnamed critical region.
RTPAR_OMP_EXPORT void GOMP_critical_start() { word_lock(&critical_word); }

// GOMP_critical_end leaves the unnamed critical region.
RTPAR_OMP_EXPORT void GOMP_critical_end() { word_unlock(&critical_word); }

// GOMP_critical_name_start enters the critical region whose variable is *name.
RTPAR_OMP_EXPORT void GOMP_critical_name_start(void** name) { word_lock(name_word(name)); }

// GOMP_critical_name_end leaves the critical region whose variable is *name.
RTPAR_OMP_EXPORT void GOMP_critical_name_end(void** name) { word_unlock(name_word(name)); }

// GOMP_atomic_start begins an atomic update the compiler could not do with an instruction.
RTPAR_OMP_EXPORT void GOMP_atomic_start() { word_lock(&atomic_word); }

// GOMP_atomic_end ends it.
RTPAR_OMP_EXPORT void GOMP_atomic_end() { word_unlock(&atomic_word); }

}  // namespace rtpar::omp
