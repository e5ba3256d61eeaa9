/* allocators: def-allocator-var is a data-environment ICV (OpenMP 5.1 §2.4): the implicit tasks
 * of a region inherit the encountering task's, so omp_alloc(…, omp_null_allocator) and the
 * allocate clause in a worker use it; omp_realloc inside one pool charges only the growth (a
 * block of most of the pool can still grow), and a pool with null_fb refuses what does not fit,
 * counting each block's footprint (header and alignment slack) as LLVM's allocator does. */
#include <stdint.h>

#include "omp_check.h"

int main(void) {
  omp_alloctrait_t traits[2] = {{omp_atk_alignment, 256}, {omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, traits);
  CHECK(a != omp_null_allocator, "omp_init_allocator failed");

  PHASE("default allocator inherited by a region's threads");
  omp_set_default_allocator(a);
  {
    int bad = 0, x = 42;
#pragma omp parallel num_threads(4) reduction(+ : bad) firstprivate(x) allocate(x)
    {
      bad += omp_get_default_allocator() != a;
      bad += ((uintptr_t)&x & 255) != 0;
      bad += x != 42;
      void* p = omp_alloc(24, omp_null_allocator);
      bad += p == NULL || ((uintptr_t)p & 255) != 0;
      omp_free(p, omp_null_allocator);
    }
    CHECK(bad == 0, "%d threads did not use the inherited default allocator", bad);
  }
  PHASE("a task's change does not leak to its region's other threads");
  {
    int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
    {
      if (omp_get_thread_num() == 1) omp_set_default_allocator(omp_default_mem_alloc);
#pragma omp barrier
      bad += omp_get_default_allocator() != (omp_get_thread_num() == 1 ? omp_default_mem_alloc : a);
    }
    CHECK(bad == 0, "%d threads saw another thread's default allocator", bad);
    CHECK(omp_get_default_allocator() == a, "the initial task's default allocator changed");
  }
  omp_set_default_allocator(omp_default_mem_alloc);
  omp_destroy_allocator(a);

  PHASE("omp_realloc within a pool");
  {
    omp_alloctrait_t pt[2] = {{omp_atk_pool_size, 4096}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t pa = omp_init_allocator(omp_default_mem_space, 2, pt);
    CHECK(pa != omp_null_allocator, "pool allocator");
    char* p = omp_alloc(3000, pa);
    CHECK(p != NULL, "3000 of 4096");
    p[0] = 5;
    p = omp_realloc(p, 3100, pa, pa);
    CHECK(p != NULL && p[0] == 5, "grow 3000 -> 3100 in a 4096 pool");
    char* q = omp_alloc(16, pa);
    CHECK(q != NULL, "16 more");
    CHECK(omp_realloc(q, 3000, pa, pa) == NULL, "3100 + 3000 fit in a 4096 pool");
    p = omp_realloc(p, 100, pa, pa);
    CHECK(p != NULL && p[0] == 5, "shrink to 100");
    char* r = omp_alloc(3600, pa);
    CHECK(r != NULL, "the shrink returned its bytes to the pool");
    omp_free(r, pa);
    omp_free(q, pa);
    omp_free(p, pa);
    omp_destroy_allocator(pa);
  }
  PHASE("a pool is charged each block's footprint");
  {
    /* As LLVM's allocator: a block costs the pool its header and alignment slack too, so a
     * 2 MiB pool holds one 1 MiB block, not two (LLVM's api/omp_alloc_null_fb.c). */
    omp_alloctrait_t pt[2] = {{omp_atk_pool_size, 2 << 20}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t pa = omp_init_allocator(omp_default_mem_space, 2, pt);
    CHECK(pa != omp_null_allocator, "pool allocator");
    void* p = omp_alloc(1 << 20, pa);
    CHECK(p != NULL, "1 MiB of a 2 MiB pool");
    void* q = omp_alloc(1 << 20, pa);
    CHECK(q == NULL, "a second 1 MiB block fit a 2 MiB pool");
    CHECK(omp_alloc(2 << 20, pa) == NULL, "a block of the whole pool's size fit beside the rest");
    omp_free(q, pa);
    omp_free(p, pa);
    q = omp_alloc((2 << 20) - 4096, pa);
    CHECK(q != NULL, "freeing returned the footprint to the pool");
    omp_free(q, pa);
    omp_destroy_allocator(pa);
  }
  return omp_check_result();
}
