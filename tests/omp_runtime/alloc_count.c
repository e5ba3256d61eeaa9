/* alloc_count.c — rtpar's OpenMP runtime allocates nothing per region, loop, barrier, single,
 * critical, lock or task after the first use of each construct at a team size (issue 13: "no heap
 * allocation per region, loop or barrier after the first region of a team size").
 *
 * The program interposes malloc, calloc, realloc and aligned allocation (the runtime's operator
 * new ends in malloc) and counts calls process-wide. It warms every construct up once, then runs
 * each many times and fails if the count moved. Not run under the sanitizers (they own malloc). */
#define _GNU_SOURCE
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void* __libc_memalign(size_t, size_t);

static atomic_long allocations;

void* malloc(size_t n) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t m) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_calloc(n, m);
}
void* realloc(void* p, size_t n) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_realloc(p, n);
}
void* memalign(size_t a, size_t n) {
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  return __libc_memalign(a, n);
}
void* aligned_alloc(size_t a, size_t n) { return memalign(a, n); }
int posix_memalign(void** p, size_t a, size_t n) {
  *p = memalign(a, n);
  return *p ? 0 : 12;
}

static long fib(int n) {
  if (n < 2) return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

/* round runs every construct once; returns a checksum the caller verifies. */
static long round_once(omp_lock_t* lock) {
  long sum = 0, crit = 0, tasks = 0;
#pragma omp parallel reduction(+ : sum)
  {
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < 100; ++i) sum += i;
#pragma omp for schedule(guided) nowait
    for (int i = 0; i < 100; ++i) sum += i;
#pragma omp for schedule(runtime)
    for (int i = 0; i < 100; ++i) sum += i;
#pragma omp single
    sum += 1;
#pragma omp critical
    crit += 1;
    omp_set_lock(lock);
    crit += 1;
    omp_unset_lock(lock);
#pragma omp barrier
#pragma omp single
    tasks = fib(10);
  }
  return sum + crit * 1000 + tasks * 1000000;
}

int main(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  const int nthreads = omp_get_max_threads();
  const long expect = 3 * 4950 + 1 + 2L * nthreads * 1000 + 55L * 1000000;
  for (int i = 0; i < 3; ++i) round_once(&lock); /* warm-up: teams, arenas, ring buffers */
  const long before = atomic_load(&allocations);
  for (int i = 0; i < 2000; ++i) {
    const long got = round_once(&lock);
    if (got != expect) {
      fprintf(stderr, "alloc_count: wrong result %ld (expected %ld)\n", got, expect);
      return 1;
    }
  }
  const long after = atomic_load(&allocations);
  omp_destroy_lock(&lock);
  if (after != before) {
    fprintf(stderr, "alloc_count: %ld heap allocations in 2000 warm rounds at %d threads\n",
            after - before, nthreads);
    return 1;
  }
  printf("alloc_count: 0 allocations in 2000 warm rounds at %d threads\n", nthreads);
  return 0;
}
