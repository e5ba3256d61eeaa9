// kmpc_threadprivate.cpp — `threadprivate` variables in LLVM's ABI when clang does not use TLS
// for them (-fnoopenmp-use-tls; by default clang on Linux uses TLS and never calls in here):
// __kmpc_threadprivate_cached returns the calling thread's copy of a variable.
//
// LLVM's openmp runtime (kmp_threadprivate.cpp) keeps the variable's initial bytes from the first
// call, gives the initial thread the variable itself and every other thread a copy made from
// those bytes at its first access. So does this file: a process-wide table of variables (their
// initial bytes; filled under a mutex on a variable's first use, by any thread) and a per-thread
// table of copies (ThreadState::kmp_threadprivate, searched linearly: programs have a handful of
// such variables). A thread's first access to a variable allocates its copy; later ones do not.
// Copies live as long as their thread's state (until the process exits).
//
// A C++ variable with a constructor is registered first (__kmpc_threadprivate_register, clang's
// `.__omp_threadprivate_init_.`): another thread's copy is then built by the constructor (copy
// constructor: LLVM's runtime never passes one) instead of from the bytes. Destructors are not
// run (copies live until the process exits).
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "omp/kmpc.hpp"

namespace rtpar::omp::kmpc {

namespace {

// Ctor is a registered variable's constructor: it builds an object at `self` and returns it.
using Ctor = void* (*)(void* self);

// ctors maps a registered variable to its constructor (guarded by registry_lock).
std::unordered_map<const void*, Ctor>& ctors() {
  static auto* table = new std::unordered_map<const void*, Ctor>;
  return *table;
}

// ctor_of is the constructor registered for `data`, or null.
Ctor ctor_of(const void* data);

// registry_lock guards initial_bytes and ctors.
std::mutex registry_lock;

// initial_bytes maps a threadprivate variable to its bytes as of its first use.
std::unordered_map<const void*, std::vector<unsigned char>>& initial_bytes() {
  static auto* table = new std::unordered_map<const void*, std::vector<unsigned char>>;
  return *table;
}

// template_of returns the initial bytes of variable `data` (size bytes), recording them first.
const unsigned char* template_of(const void* data, std::size_t size) {
  std::lock_guard<std::mutex> hold(registry_lock);
  auto [it, fresh] = initial_bytes().try_emplace(data);
  if (fresh) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    it->second.assign(bytes, bytes + size);
  }
  return it->second.data();
}

Ctor ctor_of(const void* data) {
  std::lock_guard<std::mutex> hold(registry_lock);
  const auto it = ctors().find(data);
  return it != ctors().end() ? it->second : nullptr;
}

}  // namespace

// __kmpc_threadprivate_register registers variable `data`'s constructor (cctor is always null
// from clang; the destructor is not run: file comment).
RTPAR_OMP_EXPORT void __kmpc_threadprivate_register(ident* /*loc*/, void* data, Ctor ctor,
                                                    void* /*cctor*/, void* /*dtor*/) {
  if (ctor == nullptr) return;
  std::lock_guard<std::mutex> hold(registry_lock);
  ctors()[data] = ctor;
}

// __kmpc_threadprivate_cached returns the calling thread's copy of threadprivate variable
// `data` of `size` bytes (the initial thread's is `data` itself); `cache` is not used.
RTPAR_OMP_EXPORT void* __kmpc_threadprivate_cached(ident* /*loc*/, kmp_int32 /*gtid*/, void* data,
                                                   std::size_t size, void*** /*cache*/) {
  ThreadState& ts = self();
  for (const auto& [var, copy] : ts.kmp_threadprivate) {
    if (var == data) return copy;
  }
  const unsigned char* initial = template_of(data, size);
  void* copy = data;
  if (ts.kmp_gtid != 0) {
    copy = std::malloc(size != 0 ? size : 1);
    if (copy == nullptr) std::abort();
    std::memcpy(copy, initial, size);
    if (Ctor ctor = ctor_of(data)) ctor(copy);
  }
  ts.kmp_threadprivate.emplace_back(data, copy);
  return copy;
}

}  // namespace rtpar::omp::kmpc
