/* legacy: the pre-GCC-4.9 entry points called directly, as old binaries do:
 * GOMP_parallel_start/end, GOMP_parallel_loop_*_start, GOMP_parallel_sections_start, the
 * GOMP_loop_*_start/next/end family (static chunk k to thread k mod n), ull loops, and the
 * GOMP_barrier / single / critical / atomic entry points. */
#include <stdbool.h>
#include "omp_check.h"

typedef unsigned long long ull;
extern void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads);
extern void GOMP_parallel_end(void);
extern void GOMP_parallel_loop_dynamic_start(void (*fn)(void*), void* data, unsigned nt, long start,
                                             long end, long incr, long chunk);
extern void GOMP_parallel_loop_guided_start(void (*fn)(void*), void* data, unsigned nt, long start,
                                            long end, long incr, long chunk);
extern void GOMP_parallel_loop_static_start(void (*fn)(void*), void* data, unsigned nt, long start,
                                            long end, long incr, long chunk);
extern void GOMP_parallel_loop_runtime_start(void (*fn)(void*), void* data, unsigned nt, long start,
                                             long end, long incr);
extern void GOMP_parallel_sections_start(void (*fn)(void*), void* data, unsigned nt,
                                         unsigned count);
extern bool GOMP_loop_static_start(long, long, long, long, long*, long*);
extern bool GOMP_loop_dynamic_start(long, long, long, long, long*, long*);
extern bool GOMP_loop_guided_start(long, long, long, long, long*, long*);
extern bool GOMP_loop_runtime_start(long, long, long, long*, long*);
extern bool GOMP_loop_static_next(long*, long*);
extern bool GOMP_loop_dynamic_next(long*, long*);
extern bool GOMP_loop_guided_next(long*, long*);
extern bool GOMP_loop_runtime_next(long*, long*);
extern bool GOMP_loop_ordered_static_start(long, long, long, long, long*, long*);
extern bool GOMP_loop_ordered_static_next(long*, long*);
extern bool GOMP_loop_ordered_dynamic_start(long, long, long, long, long*, long*);
extern bool GOMP_loop_ordered_dynamic_next(long*, long*);
extern void GOMP_ordered_start(void);
extern void GOMP_ordered_end(void);
extern void GOMP_loop_end(void);
extern void GOMP_loop_end_nowait(void);
extern bool GOMP_loop_ull_dynamic_start(bool, ull, ull, ull, ull, ull*, ull*);
extern bool GOMP_loop_ull_dynamic_next(ull*, ull*);
extern bool GOMP_loop_ull_static_start(bool, ull, ull, ull, ull, ull*, ull*);
extern bool GOMP_loop_ull_static_next(ull*, ull*);
extern unsigned GOMP_sections_start(unsigned);
extern unsigned GOMP_sections_next(void);
extern void GOMP_sections_end(void);
extern void GOMP_sections_end_nowait(void);
extern void GOMP_barrier(void);
extern bool GOMP_single_start(void);
extern void* GOMP_single_copy_start(void);
extern void GOMP_single_copy_end(void*);
extern void GOMP_critical_start(void);
extern void GOMP_critical_end(void);
extern void GOMP_critical_name_start(void**);
extern void GOMP_critical_name_end(void**);
extern void GOMP_atomic_start(void);
extern void GOMP_atomic_end(void);

#define N 1000
/* shared_t: the data block the outlined functions receive. */
typedef struct {
  int hits[N];
  int count;
  int size;
  int wrong_owner;
  long order_next;
  int order_bad;
  int sections[9];
  int singles;
  long crit, crit_named, crit_atomic;
  void* name_lock;
  int cp_bad;
} shared_t;

static void body_count(void* p) {
  shared_t* s = p;
  __atomic_add_fetch(&s->count, 1, __ATOMIC_RELAXED);
  if (omp_get_thread_num() == 0) s->size = omp_get_num_threads();
}

static void record(shared_t* s, long a, long b, long step) {
  for (long i = a; step > 0 ? i < b : i > b; i += step)
    if (i >= 0 && i < N) __atomic_add_fetch(&s->hits[i], 1, __ATOMIC_RELAXED);
}

static void body_dynamic_next(void* p) {
  shared_t* s = p;
  long a, b;
  while (GOMP_loop_dynamic_next(&a, &b)) record(s, a, b, 1);
  GOMP_loop_end_nowait();
}
static void body_guided_next(void* p) {
  shared_t* s = p;
  long a, b;
  while (GOMP_loop_guided_next(&a, &b)) record(s, a, b, 1);
  GOMP_loop_end_nowait();
}
static void body_runtime_next(void* p) {
  shared_t* s = p;
  long a, b;
  while (GOMP_loop_runtime_next(&a, &b)) record(s, a, b, 1);
  GOMP_loop_end_nowait();
}
static void body_static_next(void* p) {
  shared_t* s = p;
  long a, b;
  int me = omp_get_thread_num(), nt = omp_get_num_threads();
  while (GOMP_loop_static_next(&a, &b)) {
    /* chunk 7: chunk k = [7k, 7k+7) belongs to thread k mod nt. */
    if ((a / 7) % nt != me) __atomic_add_fetch(&s->wrong_owner, 1, __ATOMIC_RELAXED);
    record(s, a, b, 1);
  }
  GOMP_loop_end_nowait();
}

/* body_worksharing: every orphaned loop kind plus sections/single/critical/atomic. */
static void body_worksharing(void* p) {
  shared_t* s = p;
  long a, b;
  int me = omp_get_thread_num(), nt = omp_get_num_threads();
  /* static chunk 5, negative stride: iterations N-1 .. 0. */
  if (GOMP_loop_static_start(N - 1, -1, -1, 5, &a, &b)) {
    do {
      long k = (N - 1 - a) / 5;
      if (k % nt != me) __atomic_add_fetch(&s->wrong_owner, 1, __ATOMIC_RELAXED);
      record(s, a, b, -1);
    } while (GOMP_loop_static_next(&a, &b));
  }
  GOMP_loop_end();
  if (GOMP_loop_dynamic_start(0, N, 1, 3, &a, &b)) {
    do record(s, a, b, 1);
    while (GOMP_loop_dynamic_next(&a, &b));
  }
  GOMP_loop_end_nowait();
  if (GOMP_loop_guided_start(0, N, 2, 4, &a, &b)) {
    do record(s, a, b, 2);
    while (GOMP_loop_guided_next(&a, &b));
  }
  GOMP_loop_end_nowait();
  if (GOMP_loop_guided_start(1, N, 2, 4, &a, &b)) {
    do record(s, a, b, 2);
    while (GOMP_loop_guided_next(&a, &b));
  }
  GOMP_loop_end();
  if (GOMP_loop_runtime_start(0, N, 1, &a, &b)) {
    do record(s, a, b, 1);
    while (GOMP_loop_runtime_next(&a, &b));
  }
  GOMP_loop_end();
  /* ordered static and dynamic */
  if (GOMP_loop_ordered_static_start(0, N, 1, 2, &a, &b)) {
    do {
      for (long i = a; i < b; i++) {
        GOMP_ordered_start();
        if (s->order_next != i) s->order_bad++;
        s->order_next = i + 1;
        GOMP_ordered_end();
      }
    } while (GOMP_loop_ordered_static_next(&a, &b));
  }
  GOMP_loop_end();
  if (me == 0) s->order_next = 0;
  GOMP_barrier();
  if (GOMP_loop_ordered_dynamic_start(0, N, 1, 3, &a, &b)) {
    do {
      for (long i = a; i < b; i++) {
        GOMP_ordered_start();
        if (s->order_next != i) s->order_bad++;
        s->order_next = i + 1;
        GOMP_ordered_end();
      }
    } while (GOMP_loop_ordered_dynamic_next(&a, &b));
  }
  GOMP_loop_end();
  /* ull */
  ull ua, ub;
  if (GOMP_loop_ull_dynamic_start(true, 0, N, 1, 9, &ua, &ub)) {
    do record(s, (long)ua, (long)ub, 1);
    while (GOMP_loop_ull_dynamic_next(&ua, &ub));
  }
  GOMP_loop_end_nowait();
  /* Down-counting ull loop over v = N .. 1 (end 0 exclusive), recording v - 1. */
  if (GOMP_loop_ull_static_start(false, N, 0, (ull)-1, 0, &ua, &ub)) {
    do record(s, (long)ua - 1, (long)ub - 1, -1);
    while (GOMP_loop_ull_static_next(&ua, &ub));
  }
  GOMP_loop_end();
  /* sections 1..8 */
  for (unsigned k = GOMP_sections_start(8); k != 0; k = GOMP_sections_next())
    if (k <= 8) __atomic_add_fetch(&s->sections[k], 1, __ATOMIC_RELAXED);
  GOMP_sections_end();
  /* 20 singles */
  for (int r = 0; r < 20; r++)
    if (GOMP_single_start()) __atomic_add_fetch(&s->singles, 1, __ATOMIC_RELAXED);
  GOMP_barrier();
  /* copyprivate */
  for (int r = 0; r < 10; r++) {
    static long value;
    long* got = GOMP_single_copy_start();
    long mine;
    if (got == NULL) {
      value = 1000 + r;
      GOMP_single_copy_end(&value);
      mine = value;
    } else {
      mine = *got;
    }
    if (mine != 1000 + r) __atomic_add_fetch(&s->cp_bad, 1, __ATOMIC_RELAXED);
    GOMP_barrier();
  }
  for (int r = 0; r < 100; r++) {
    GOMP_critical_start();
    s->crit++;
    GOMP_critical_end();
    GOMP_critical_name_start(&s->name_lock);
    s->crit_named++;
    GOMP_critical_name_end(&s->name_lock);
    GOMP_atomic_start();
    s->crit_atomic++;
    GOMP_atomic_end();
  }
}

static void body_sections_next(void* p) {
  shared_t* s = p;
  for (unsigned k = GOMP_sections_next(); k != 0; k = GOMP_sections_next())
    if (k <= 8) __atomic_add_fetch(&s->sections[k], 1, __ATOMIC_RELAXED);
  GOMP_sections_end_nowait();
}

static shared_t S;

/* chunk_t: one chunk handed out by GOMP_loop_{dynamic,guided}_next, for the shape checks. */
typedef struct {
  long start, size;
} chunk_t;
static chunk_t chunks[4096];
static int nchunks;

static void body_record_chunks(void* p) {
  int guided = *(int*)p;
  long a, b;
  while (guided ? GOMP_loop_guided_next(&a, &b) : GOMP_loop_dynamic_next(&a, &b)) {
    int k = __atomic_fetch_add(&nchunks, 1, __ATOMIC_RELAXED);
    if (k < 4096) chunks[k] = (chunk_t){a, b - a};
  }
  GOMP_loop_end_nowait();
}

static int by_start(const void* x, const void* y) {
  const chunk_t *a = x, *b = y;
  return (a->start > b->start) - (a->start < b->start);
}

/* check_chunk_shape: chunks tile [0, n); dynamic chunks are all `chunk` long but the last;
 * guided chunks are at least `chunk` long (but the last) and never grow along the loop. */
static void check_chunk_shape(int guided, long n, long chunk) {
  qsort(chunks, nchunks, sizeof chunks[0], by_start);
  long next = 0;
  for (int k = 0; k < nchunks; k++) {
    int last = k == nchunks - 1;
    if (chunks[k].start != next) {
      CHECK(0, "%s,%ld: chunk %d starts at %ld, expected %ld", guided ? "guided" : "dynamic", chunk,
            k, chunks[k].start, next);
      return;
    }
    next += chunks[k].size;
    if (!guided && !last && chunks[k].size != chunk) {
      CHECK(0, "dynamic,%ld: chunk %d has %ld iterations", chunk, k, chunks[k].size);
      return;
    }
    if (guided && !last && chunks[k].size < chunk) {
      CHECK(0, "guided,%ld: chunk %d has only %ld iterations", chunk, k, chunks[k].size);
      return;
    }
    if (guided && k > 0 && chunks[k].size > chunks[k - 1].size) {
      CHECK(0, "guided,%ld: chunk %d (%ld) larger than chunk %d (%ld)", chunk, k, chunks[k].size,
            k - 1, chunks[k - 1].size);
      return;
    }
  }
  CHECK(next == n, "%s,%ld: chunks cover %ld of %ld", guided ? "guided" : "dynamic", chunk, next,
        n);
}

static void reset(void) { memset(&S, 0, sizeof S); }
static void check_hits(const char* what, int expect, int step) {
  for (int i = 0; i < N; i++) {
    int e = (i % step == 0) ? expect : 0;
    if (S.hits[i] != e) {
      CHECK(S.hits[i] == e, "%s: iteration %d ran %d times, expected %d", what, i, S.hits[i], e);
      return;
    }
  }
}

int main(void) {
  int n = env_threads();
  if (n < 1) n = 1;

  PHASE("GOMP_parallel_start");
  for (unsigned t = 0; t <= 4; t++) {
    reset();
    GOMP_parallel_start(body_count, &S, t);
    body_count(&S);
    GOMP_parallel_end();
    int expect = t ? (int)t : n;
    CHECK(S.count == expect && S.size == expect, "parallel_start(%u): %d ran, size %d", t, S.count,
          S.size);
  }

  PHASE("GOMP_parallel_loop_dynamic_start");
  reset();
  GOMP_parallel_loop_dynamic_start(body_dynamic_next, &S, 3, 0, N, 1, 4);
  body_dynamic_next(&S);
  GOMP_parallel_end();
  check_hits("parallel_loop_dynamic", 1, 1);

  PHASE("GOMP_parallel_loop_guided_start");
  reset();
  GOMP_parallel_loop_guided_start(body_guided_next, &S, 0, 0, N, 1, 1);
  body_guided_next(&S);
  GOMP_parallel_end();
  check_hits("parallel_loop_guided", 1, 1);

  PHASE("GOMP_parallel_loop_static_start");
  reset();
  GOMP_parallel_loop_static_start(body_static_next, &S, 0, 0, N, 1, 7);
  body_static_next(&S);
  GOMP_parallel_end();
  check_hits("parallel_loop_static", 1, 1);
  CHECK(S.wrong_owner == 0, "static chunks on the wrong thread: %d", S.wrong_owner);

  PHASE("GOMP_parallel_loop_runtime_start");
  omp_set_schedule(omp_sched_dynamic, 11);
  reset();
  GOMP_parallel_loop_runtime_start(body_runtime_next, &S, 2, 0, N, 1);
  body_runtime_next(&S);
  GOMP_parallel_end();
  check_hits("parallel_loop_runtime", 1, 1);

  PHASE("GOMP_parallel_sections_start");
  reset();
  GOMP_parallel_sections_start(body_sections_next, &S, 0, 8);
  body_sections_next(&S);
  GOMP_parallel_end();
  for (int k = 1; k <= 8; k++)
    CHECK(S.sections[k] == 1, "section %d ran %d times", k, S.sections[k]);

  PHASE("orphaned legacy work sharing");
  reset();
  GOMP_parallel_start(body_worksharing, &S, 0);
  body_worksharing(&S);
  GOMP_parallel_end();
  /* 1 static + 1 dynamic + 1 guided over evens + 1 guided over odds + 1 runtime + 2 ull. */
  check_hits("orphaned loops", 6, 1);
  CHECK(S.wrong_owner == 0, "static chunks on the wrong thread: %d", S.wrong_owner);
  CHECK(S.order_bad == 0, "ordered out of order %d times", S.order_bad);
  for (int k = 1; k <= 8; k++)
    CHECK(S.sections[k] == 1, "section %d ran %d times", k, S.sections[k]);
  CHECK(S.singles == 20, "singles %d", S.singles);
  CHECK(S.cp_bad == 0, "copyprivate wrong %d times", S.cp_bad);
  CHECK(S.crit == 100L * n, "critical count %ld, expected %ld", S.crit, 100L * n);
  CHECK(S.crit_named == 100L * n, "named critical count %ld, expected %ld", S.crit_named, 100L * n);
  CHECK(S.crit_atomic == 100L * n, "atomic_start count %ld, expected %ld", S.crit_atomic, 100L * n);

  PHASE("dynamic and guided chunk shapes");
  for (int guided = 0; guided < 2; guided++) {
    for (long chunk = 1; chunk <= 7; chunk += 3) {
      nchunks = 0;
      if (guided)
        GOMP_parallel_loop_guided_start(body_record_chunks, &guided, 0, 0, 1000, 1, chunk);
      else
        GOMP_parallel_loop_dynamic_start(body_record_chunks, &guided, 0, 0, 1000, 1, chunk);
      body_record_chunks(&guided);
      GOMP_parallel_end();
      check_chunk_shape(guided, 1000, chunk);
    }
  }

  PHASE("legacy loops outside parallel");
  reset();
  {
    long a, b;
    if (GOMP_loop_dynamic_start(0, N, 1, 10, &a, &b)) {
      do record(&S, a, b, 1);
      while (GOMP_loop_dynamic_next(&a, &b));
    }
    GOMP_loop_end();
    check_hits("orphaned dynamic, no team", 1, 1);
  }
  return omp_check_result();
}
