/* kmpc_direct: LLVM-ABI entry points clang 14 does not emit for this code, called by hand as other
 * compilers and LLVM's runtime tests do: the __kmpc_atomic_* family (lock-free sizes and the
 * locked long double), the compare-and-swap forms, __kmpc_dist_for_static_init_4 in a host teams
 * region, __kmpc_threadprivate_register with __kmpc_threadprivate_cached, __kmpc_init_allocator /
 * __kmpc_destroy_allocator and a warning through __kmpc_error. Built with clang only. */
#include <stdbool.h>

#include "omp_check.h"

typedef struct ident ident_t;
void __kmpc_atomic_fixed4_add(ident_t*, int, int*, int);
int __kmpc_atomic_fixed4_sub_cpt(ident_t*, int, int*, int, int);
void __kmpc_atomic_fixed8_mul(ident_t*, int, long long*, long long);
void __kmpc_atomic_fixed1_orb(ident_t*, int, signed char*, signed char);
short __kmpc_atomic_fixed2_shl_cpt_rev(ident_t*, int, short*, short, int);
double __kmpc_atomic_float8_add_cpt(ident_t*, int, double*, double, int);
void __kmpc_atomic_float4_max(ident_t*, int, float*, float);
void __kmpc_atomic_float10_add(ident_t*, int, long double*, long double);
long double __kmpc_atomic_float10_min_cpt(ident_t*, int, long double*, long double, int);
long double __kmpc_atomic_float10_rd(ident_t*, int, long double*);
void __kmpc_atomic_float10_wr(ident_t*, int, long double*, long double);
int __kmpc_atomic_fixed4_swp(ident_t*, int, int*, int);
bool __kmpc_atomic_bool_4_cas(ident_t*, int, int*, int, int);
long long __kmpc_atomic_val_8_cas(ident_t*, int, long long*, long long, long long);
bool __kmpc_atomic_bool_2_cas_cpt(ident_t*, int, short*, short, short, short*);
void __kmpc_atomic_start(void);
void __kmpc_atomic_end(void);
void __kmpc_dist_for_static_init_4(ident_t*, int, int, int*, int*, int*, int*, int*, int, int);
void __kmpc_threadprivate_register(ident_t*, void*, void* (*)(void*), void*, void*);
void* __kmpc_threadprivate_cached(ident_t*, int, void*, size_t, void***);
omp_allocator_handle_t __kmpc_init_allocator(int, omp_memspace_handle_t, int, omp_alloctrait_t*);
void __kmpc_destroy_allocator(int, omp_allocator_handle_t);
void __kmpc_error(ident_t*, int, const char*);

#define N 400
static int hits[N];
static int tp_var = 5;
static int tp_ctor_calls;

static void* tp_ctor(void* self) {
  *(int*)self = 42;
  __atomic_add_fetch(&tp_ctor_calls, 1, __ATOMIC_RELAXED);
  return self;
}

int main(void) {
  PHASE("atomic updates");
  {
    int sum = 0, down = 1000;
    long long prod = 1;
    signed char bits = 0;
    double dsum = 0;
    float fmax = -1;
    long double lsum = 0;
#pragma omp parallel
    {
      int t = omp_get_thread_num();
      for (int i = 0; i < 100; i++) {
        __kmpc_atomic_fixed4_add(NULL, 0, &sum, 1);
        __kmpc_atomic_fixed4_sub_cpt(NULL, 0, &down, 1, 1);
        __kmpc_atomic_float8_add_cpt(NULL, 0, &dsum, 0.5, 0);
        __kmpc_atomic_float10_add(NULL, 0, &lsum, 0.25L);
      }
      if (t < 6) __kmpc_atomic_fixed8_mul(NULL, 0, &prod, 2);
      __kmpc_atomic_fixed1_orb(NULL, 0, &bits, (signed char)(1 << (t % 7)));
      __kmpc_atomic_float4_max(NULL, 0, &fmax, (float)t);
    }
    int n = omp_get_max_threads();
    int m = n < 6 ? n : 6;
    CHECK(sum == 100 * n, "fixed4_add %d", sum);
    CHECK(down == 1000 - 100 * n, "fixed4_sub_cpt %d", down);
    CHECK(dsum == 50.0 * n, "float8_add_cpt %g", dsum);
    CHECK(lsum == 25.0L * n, "float10_add %Lg", lsum);
    CHECK(prod == 1ULL << m, "fixed8_mul %llu", prod);
    CHECK(fmax == (float)(n - 1), "float4_max %g", fmax);
    CHECK(bits != 0 && (bits & 1), "fixed1_orb %d", bits);
  }

  PHASE("capture, read, write, swap, compare-and-swap");
  {
    short s = 3;
    short now = __kmpc_atomic_fixed2_shl_cpt_rev(NULL, 0, &s, 1, 1); /* s = 1 << 3 */
    CHECK(s == 8 && now == 8, "fixed2_shl_cpt_rev %d %d", s, now);
    long double l = 5;
    long double old = __kmpc_atomic_float10_min_cpt(NULL, 0, &l, 2, 0);
    CHECK(old == 5 && l == 2, "float10_min_cpt %Lg %Lg", old, l);
    __kmpc_atomic_float10_wr(NULL, 0, &l, 7.5L);
    CHECK(__kmpc_atomic_float10_rd(NULL, 0, &l) == 7.5L, "float10_rd/wr");
    int x = 1;
    CHECK(__kmpc_atomic_fixed4_swp(NULL, 0, &x, 9) == 1 && x == 9, "fixed4_swp");
    CHECK(__kmpc_atomic_bool_4_cas(NULL, 0, &x, 9, 10) && x == 10, "bool_4_cas success");
    CHECK(!__kmpc_atomic_bool_4_cas(NULL, 0, &x, 9, 11) && x == 10, "bool_4_cas failure");
    long long y = 4;
    CHECK(__kmpc_atomic_val_8_cas(NULL, 0, &y, 3, 5) == 4 && y == 4, "val_8_cas failure");
    CHECK(__kmpc_atomic_val_8_cas(NULL, 0, &y, 4, 5) == 4 && y == 5, "val_8_cas success");
    short z = 1, pv = 0;
    CHECK(!__kmpc_atomic_bool_2_cas_cpt(NULL, 0, &z, 2, 3, &pv) && pv == 1, "bool_2_cas_cpt");
    int guarded = 0;
#pragma omp parallel
    {
      __kmpc_atomic_start();
      guarded++;
      __kmpc_atomic_end();
    }
    CHECK(guarded == omp_get_max_threads(), "atomic_start/end %d", guarded);
  }

  PHASE("dist_for_static_init_4 in teams");
  {
    memset(hits, 0, sizeof hits);
#pragma omp teams num_teams(3)
    {
#pragma omp parallel num_threads(2)
      {
        int last = 0, lb = 0, ub = N - 1, ubd = 0, st = 0;
        __kmpc_dist_for_static_init_4(NULL, 0, 34, &last, &lb, &ub, &ubd, &st, 1, 0);
        for (int i = lb; i <= ub && i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
      }
    }
    for (int i = 0; i < N; i++) CHECK(hits[i] == 1, "iteration %d ran %d times", i, hits[i]);
  }

  PHASE("threadprivate_register");
  {
    __kmpc_threadprivate_register(NULL, &tp_var, tp_ctor, NULL, NULL);
    int bad = 0;
#pragma omp parallel num_threads(3)
    {
      int* mine = __kmpc_threadprivate_cached(NULL, 0, &tp_var, sizeof tp_var, NULL);
      int want = omp_get_thread_num() == 0 ? 5 : 42;
      if (*mine != want) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
    CHECK(bad == 0, "%d threads saw a wrong threadprivate copy", bad);
  }

  PHASE("init_allocator, error warning");
  {
    omp_alloctrait_t traits[] = {{omp_atk_alignment, 256}};
    omp_allocator_handle_t a = __kmpc_init_allocator(0, omp_default_mem_space, 1, traits);
    CHECK(a != omp_null_allocator, "init_allocator failed");
    void* p = omp_alloc(100, a);
    CHECK(p != NULL && ((unsigned long)p & 255) == 0, "allocation %p not 256-aligned", p);
    omp_free(p, a);
    __kmpc_destroy_allocator(0, a);
    __kmpc_error(NULL, 1, "kmpc_direct: an expected warning");
  }
  return omp_check_result();
}
