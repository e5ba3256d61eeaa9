/* locks: simple and nestable locks: mutual exclusion, omp_test_lock failing while another
 * thread holds the lock, nest-lock counts from omp_set/test_nest_lock, the lock owned by the
 * task (a task may not re-enter a nest lock its parent task holds), many locks, and locks used
 * without a team. */
#include "omp_check.h"

static omp_lock_t lock;
static omp_nest_lock_t nlock;

int main(void) {
  PHASE("sizes");
#ifdef KMP_VERSION_MAJOR /* LLVM's omp.h (clang): both lock types are one pointer */
  CHECK(sizeof(omp_lock_t) == 8 && sizeof(omp_nest_lock_t) == 8, "omp.h lock sizes %zu %zu",
        sizeof(omp_lock_t), sizeof(omp_nest_lock_t));
#else
  CHECK(sizeof(omp_lock_t) == 4 && sizeof(omp_nest_lock_t) == 16, "omp.h lock sizes %zu %zu",
        sizeof(omp_lock_t), sizeof(omp_nest_lock_t));
#endif

  PHASE("mutual exclusion");
  omp_init_lock(&lock);
  {
    long counter = 0;
    int inside = 0, max_inside = 0;
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < 20000; i++) {
      omp_set_lock(&lock);
      int v = ++inside;
      if (v > max_inside) max_inside = v;
      counter++;
      --inside;
      omp_unset_lock(&lock);
    }
    CHECK(counter == 20000 && max_inside == 1, "lock: %ld, max inside %d", counter, max_inside);
  }

  PHASE("test_lock");
  {
    CHECK(omp_test_lock(&lock) == 1, "test_lock on a free lock failed");
    int other = -1;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 1) other = omp_test_lock(&lock);
    }
    if (omp_get_max_threads() >= 2)
      CHECK(other == 0, "test_lock by another thread while held returned %d", other);
    omp_unset_lock(&lock);
    long counter = 0;
#pragma omp parallel
    {
      for (int i = 0; i < 500; i++) {
        while (!omp_test_lock(&lock)) {
        }
        counter++;
        omp_unset_lock(&lock);
      }
    }
    CHECK(counter == 500L * omp_get_max_threads(), "test_lock loop %ld", counter);
  }
  omp_destroy_lock(&lock);

  PHASE("nest lock counts");
  omp_init_nest_lock(&nlock);
  {
    CHECK(omp_test_nest_lock(&nlock) == 1, "first test_nest_lock");
    CHECK(omp_test_nest_lock(&nlock) == 2, "second test_nest_lock");
    omp_set_nest_lock(&nlock);
    CHECK(omp_test_nest_lock(&nlock) == 4, "fourth level");
    int other = -1;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 1) other = omp_test_nest_lock(&nlock);
    }
    if (omp_get_max_threads() >= 2) CHECK(other == 0, "other thread test_nest_lock %d", other);
    for (int k = 0; k < 4; k++) omp_unset_nest_lock(&nlock);
    int got = -1;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == omp_get_num_threads() - 1) {
        got = omp_test_nest_lock(&nlock);
        if (got) omp_unset_nest_lock(&nlock);
      }
    }
    CHECK(got == 1, "after full release another thread got %d", got);
  }

  PHASE("nest lock exclusion");
  {
    long counter = 0;
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < 5000; i++) {
      omp_set_nest_lock(&nlock);
      omp_set_nest_lock(&nlock);
      counter++;
      omp_unset_nest_lock(&nlock);
      counter++;
      omp_unset_nest_lock(&nlock);
    }
    CHECK(counter == 10000, "nest lock counter %ld", counter);
  }

  PHASE("nest lock owned by the task");
  {
    int child = -1;
    omp_set_nest_lock(&nlock);
    /* An undeferred task is a different task on the same thread: it does not own the lock. */
#pragma omp task if (0) shared(child)
    child = omp_test_nest_lock(&nlock);
    if (child > 0) omp_unset_nest_lock(&nlock);
    CHECK(child == 0, "child task re-entered its parent's nest lock (%d)", child);
    omp_unset_nest_lock(&nlock);
    int inpar = -1;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
      omp_set_nest_lock(&nlock);
#pragma omp task if (0) shared(inpar)
      inpar = omp_test_nest_lock(&nlock);
      if (inpar > 0) omp_unset_nest_lock(&nlock);
      omp_unset_nest_lock(&nlock);
    }
    CHECK(inpar == 0, "in a team: child task got its parent's nest lock (%d)", inpar);
  }

  PHASE("lock held across a task scheduling point");
  {
    long counter = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 200; i++) {
#pragma omp task shared(counter)
      {
        omp_set_nest_lock(&nlock);
        counter++;
        omp_unset_nest_lock(&nlock);
      }
    }
    CHECK(counter == 200, "lock in tasks %ld", counter);
  }
  omp_destroy_nest_lock(&nlock);

  PHASE("many locks");
  {
    omp_lock_t locks[64];
    omp_nest_lock_t nl;
    /* (GCC 12's libgomp declares omp_init_lock_with_hint but does not export it.) */
    for (int i = 0; i < 64; i++) omp_init_lock(&locks[i]);
    omp_init_nest_lock(&nl);
    long cells[65] = {0};
#pragma omp parallel for schedule(dynamic, 4)
    for (int i = 0; i < 6400; i++) {
      omp_set_lock(&locks[i % 64]);
      cells[i % 64]++;
      omp_unset_lock(&locks[i % 64]);
      omp_set_nest_lock(&nl);
      omp_set_nest_lock(&nl);
      __atomic_add_fetch(&cells[64], 1, __ATOMIC_RELAXED);
      omp_unset_nest_lock(&nl);
      omp_unset_nest_lock(&nl);
    }
    int ok = 1;
    for (int i = 0; i < 64; i++) ok &= cells[i] == 100;
    CHECK(ok && cells[64] == 6400, "per-cell locks");
    for (int i = 0; i < 64; i++) omp_destroy_lock(&locks[i]);
    omp_destroy_nest_lock(&nl);
  }

  PHASE("re-init after destroy");
  for (int r = 0; r < 100; r++) {
    omp_lock_t l;
    omp_init_lock(&l);
    omp_set_lock(&l);
    omp_unset_lock(&l);
    omp_destroy_lock(&l);
    omp_nest_lock_t n;
    omp_init_nest_lock(&n);
    omp_set_nest_lock(&n);
    omp_unset_nest_lock(&n);
    omp_destroy_nest_lock(&n);
  }
  return omp_check_result();
}
