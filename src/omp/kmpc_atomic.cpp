// kmpc_atomic.cpp — LLVM's `__kmpc_atomic_*` entry points: the atomic updates of LLVM's ABI
// (kmp_atomic.h) for the types a compiler may not do inline (clang 14 emits them for none of its
// own codegen, but programs and other compilers call them): __kmpc_atomic_<type>_<op>[_cpt],
// the reversed forms _<op>_rev and _<op>_cpt_rev, _rd, _wr, _swp, the compare-and-swap family
// __kmpc_atomic_{bool,val}_<n>_cas[_cpt], and __kmpc_atomic_start / _end.
//
// One mechanism, generated: every entry point is an instance of update() with its operation as an
// expression. A type of 1, 2, 4 or 8 bytes is updated with a compare-and-swap loop on its bits
// (lock-free, no allocation); a larger one (float10, long double) under one of kStripes futex
// mutexes (mutex.hpp) chosen by its address, as LLVM's runtime uses a lock for them.
// <type>: fixed1 (signed char), fixed1u, fixed2, fixed2u, fixed4, fixed4u, fixed8, fixed8u,
// float4, float8, float10. _cpt returns the new value when `flag` is non-zero, the old one else.
//
// Memory ordering: seq_cst on every atomic access (the entry point does not know the construct's
// memory-order clause; the strongest is right for every clause); the mutex orders the locked
// path (its acquire lock and release unlock).
#include <cstdint>
#include <type_traits>

#include "omp/kmpc.hpp"
#include "omp/mutex.hpp"

namespace rtpar::omp::kmpc {

namespace {

// kStripes is the number of mutexes of the locked path.
constexpr std::size_t kStripes = 64;

// Stripe is one mutex word of the locked path, on a cache line of its own.
struct alignas(64) Stripe {
  std::uint32_t word = 0;
};

// stripes are the locked path's mutexes.
Stripe stripes[kStripes];

// global_lock is __kmpc_atomic_start's mutex word.
std::uint32_t global_lock = 0;

// stripe_of is the mutex word of the variable at p.
std::uint32_t* stripe_of(const void* p) noexcept {
  return &stripes[(reinterpret_cast<std::uintptr_t>(p) >> 4) % kStripes].word;
}

// kLockFree tells whether T is updated with a compare-and-swap loop.
template <class T>
constexpr bool kLockFree = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8;

// update replaces *p by f(*p) atomically; old / now receive the values before and after.
template <class T, class F>
void update(T* p, F f, T& old, T& now) noexcept {
  if constexpr (kLockFree<T>) {
    // seq_cst, both (file comment).
    __atomic_load(p, &old, __ATOMIC_SEQ_CST);
    do {
      now = f(old);
    } while (!__atomic_compare_exchange(p, &old, &now, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
  } else {
    std::uint32_t* w = stripe_of(p);
    word_lock(w);
    old = *p;
    now = f(old);
    *p = now;
    word_unlock(w);
  }
}

// read is an atomic load of *p.
template <class T>
T read(T* p) noexcept {
  T v;
  if constexpr (kLockFree<T>) {
    __atomic_load(p, &v, __ATOMIC_SEQ_CST);  // seq_cst (file comment)
  } else {
    std::uint32_t* w = stripe_of(p);
    word_lock(w);
    v = *p;
    word_unlock(w);
  }
  return v;
}

// write is an atomic store of v to *p.
template <class T>
void write(T* p, T v) noexcept {
  T old, now;
  update(
      p, [v](T) { return v; }, old, now);
}

// ucast is a value of T's unsigned counterpart (integer arithmetic wraps instead of overflowing).
template <class T>
auto ucast(T v) noexcept {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<std::make_unsigned_t<T>>(v);
  } else {
    return v;
  }
}

}  // namespace

// KMPC_ATOMIC_UPD defines __kmpc_atomic_<TYPE>_<NAME> and _<CPT>: *lhs = EXPR, where EXPR reads
// the old value `a` and the operand `b`.
#define KMPC_ATOMIC_UPD(TYPE, T, NAME, CPT, EXPR)                                              \
  RTPAR_OMP_EXPORT void __kmpc_atomic_##TYPE##_##NAME(ident* /*loc*/, int /*gtid*/, T* lhs,    \
                                                      T rhs) {                                 \
    T old, now;                                                                                \
    update(                                                                                    \
        lhs,                                                                                   \
        [rhs](T a) {                                                                           \
          const T b = rhs;                                                                     \
          return static_cast<T>(EXPR);                                                         \
        },                                                                                     \
        old, now);                                                                             \
  }                                                                                            \
  RTPAR_OMP_EXPORT T __kmpc_atomic_##TYPE##_##CPT(ident* /*loc*/, int /*gtid*/, T* lhs, T rhs, \
                                                  int flag) {                                  \
    T old, now;                                                                                \
    update(                                                                                    \
        lhs,                                                                                   \
        [rhs](T a) {                                                                           \
          const T b = rhs;                                                                     \
          return static_cast<T>(EXPR);                                                         \
        },                                                                                     \
        old, now);                                                                             \
    return flag != 0 ? now : old;                                                              \
  }

// KMPC_ATOMIC_OP is the forward form <OP> / <OP>_cpt, KMPC_ATOMIC_REV the reversed one
// <OP>_rev / <OP>_cpt_rev (*lhs = rhs OP *lhs: EXPR with the operands swapped).
#define KMPC_ATOMIC_OP(TYPE, T, OP, EXPR) KMPC_ATOMIC_UPD(TYPE, T, OP, OP##_cpt, EXPR)
#define KMPC_ATOMIC_REV(TYPE, T, OP, EXPR) KMPC_ATOMIC_UPD(TYPE, T, OP##_rev, OP##_cpt_rev, EXPR)

// KMPC_ATOMIC_RW defines __kmpc_atomic_<TYPE>_rd, _wr and _swp.
#define KMPC_ATOMIC_RW(TYPE, T)                                                                  \
  RTPAR_OMP_EXPORT T __kmpc_atomic_##TYPE##_rd(ident* /*loc*/, int /*gtid*/, T* loc) {           \
    return read(loc);                                                                            \
  }                                                                                              \
  RTPAR_OMP_EXPORT void __kmpc_atomic_##TYPE##_wr(ident* /*loc*/, int /*gtid*/, T* lhs, T rhs) { \
    write(lhs, rhs);                                                                             \
  }                                                                                              \
  RTPAR_OMP_EXPORT T __kmpc_atomic_##TYPE##_swp(ident* /*loc*/, int /*gtid*/, T* lhs, T rhs) {   \
    T old, now;                                                                                  \
    update(                                                                                      \
        lhs, [rhs](T) { return rhs; }, old, now);                                                \
    return old;                                                                                  \
  }

// KMPC_ATOMIC_ARITH: the operations of every type (the _rev forms swap the operands).
#define KMPC_ATOMIC_ARITH(TYPE, T)                   \
  KMPC_ATOMIC_OP(TYPE, T, add, ucast(a) + ucast(b))  \
  KMPC_ATOMIC_OP(TYPE, T, sub, ucast(a) - ucast(b))  \
  KMPC_ATOMIC_OP(TYPE, T, mul, ucast(a) * ucast(b))  \
  KMPC_ATOMIC_OP(TYPE, T, div, a / b)                \
  KMPC_ATOMIC_OP(TYPE, T, max, a < b ? b : a)        \
  KMPC_ATOMIC_OP(TYPE, T, min, b < a ? b : a)        \
  KMPC_ATOMIC_REV(TYPE, T, sub, ucast(b) - ucast(a)) \
  KMPC_ATOMIC_REV(TYPE, T, div, b / a)               \
  KMPC_ATOMIC_RW(TYPE, T)

// KMPC_ATOMIC_INT: the operations of the integer types only.
#define KMPC_ATOMIC_INT(TYPE, T)               \
  KMPC_ATOMIC_ARITH(TYPE, T)                   \
  KMPC_ATOMIC_OP(TYPE, T, andb, a& b)          \
  KMPC_ATOMIC_OP(TYPE, T, orb, a | b)          \
  KMPC_ATOMIC_OP(TYPE, T, xor, a ^ b)          \
  KMPC_ATOMIC_OP(TYPE, T, shl, ucast(a) << b)  \
  KMPC_ATOMIC_OP(TYPE, T, shr, a >> b)         \
  KMPC_ATOMIC_REV(TYPE, T, shl, ucast(b) << a) \
  KMPC_ATOMIC_REV(TYPE, T, shr, b >> a)        \
  KMPC_ATOMIC_OP(TYPE, T, andl, a&& b)         \
  KMPC_ATOMIC_OP(TYPE, T, orl, a || b)         \
  KMPC_ATOMIC_OP(TYPE, T, eqv, ~(a ^ b))       \
  KMPC_ATOMIC_OP(TYPE, T, neqv, a ^ b)

// KMPC_ATOMIC_CAS defines __kmpc_atomic_bool_<N>_cas, _val_<N>_cas and their _cpt forms: if *x
// equals e it becomes d. bool_cas says whether it did, val_cas returns the old value; _cpt also
// stores into *pv the value *x has afterwards when the swap failed (bool) or always (val).
#define KMPC_ATOMIC_CAS(N, T)                                                                      \
  RTPAR_OMP_EXPORT bool __kmpc_atomic_bool_##N##_cas(ident* /*loc*/, int /*gtid*/, T* x, T e,      \
                                                     T d) {                                        \
    /* seq_cst (file comment) */                                                                   \
    return __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
  }                                                                                                \
  RTPAR_OMP_EXPORT T __kmpc_atomic_val_##N##_cas(ident* /*loc*/, int /*gtid*/, T* x, T e, T d) {   \
    /* seq_cst (file comment); on failure e receives the current value */                          \
    __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
    return e;                                                                                      \
  }                                                                                                \
  RTPAR_OMP_EXPORT bool __kmpc_atomic_bool_##N##_cas_cpt(ident* /*loc*/, int /*gtid*/, T* x, T e,  \
                                                         T d, T* pv) {                             \
    /* seq_cst (file comment) */                                                                   \
    const bool ok =                                                                                \
        __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    if (!ok) *pv = e;                                                                              \
    return ok;                                                                                     \
  }                                                                                                \
  RTPAR_OMP_EXPORT T __kmpc_atomic_val_##N##_cas_cpt(ident* /*loc*/, int /*gtid*/, T* x, T e, T d, \
                                                     T* pv) {                                      \
    const T expected = e;                                                                          \
    /* seq_cst (file comment) */                                                                   \
    const bool ok =                                                                                \
        __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    *pv = ok ? d : e;                                                                              \
    return ok ? expected : e;                                                                      \
  }

KMPC_ATOMIC_INT(fixed1, signed char)
KMPC_ATOMIC_INT(fixed1u, unsigned char)
KMPC_ATOMIC_INT(fixed2, short)
KMPC_ATOMIC_INT(fixed2u, unsigned short)
KMPC_ATOMIC_INT(fixed4, kmp_int32)
KMPC_ATOMIC_INT(fixed4u, kmp_uint32)
KMPC_ATOMIC_INT(fixed8, kmp_int64)
KMPC_ATOMIC_INT(fixed8u, kmp_uint64)
KMPC_ATOMIC_ARITH(float4, float)
KMPC_ATOMIC_ARITH(float8, double)
KMPC_ATOMIC_ARITH(float10, long double)
KMPC_ATOMIC_CAS(1, char)
KMPC_ATOMIC_CAS(2, short)
KMPC_ATOMIC_CAS(4, kmp_int32)
KMPC_ATOMIC_CAS(8, long long)

// __kmpc_atomic_start begins an atomic update the compiler does itself under the runtime's one
// global lock; __kmpc_atomic_end ends it.
RTPAR_OMP_EXPORT void __kmpc_atomic_start() { word_lock(&global_lock); }

// __kmpc_atomic_end releases __kmpc_atomic_start's lock.
RTPAR_OMP_EXPORT void __kmpc_atomic_end() { word_unlock(&global_lock); }

}  // namespace rtpar::omp::kmpc
