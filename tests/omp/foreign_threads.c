/* foreign_threads: plain pthreads that each run OpenMP regions at the same time: each gets
 * its own team, its own ICVs (omp_set_num_threads in one thread does not change another's),
 * correct work sharing, tasks and locks, and a region started by a pthread created from inside
 * an OpenMP region. */
#include <pthread.h>
#include "omp_check.h"

#define NPT 3
static omp_lock_t shared_lock;
static long locked_counter;

static void* worker(void* arg) {
  long id = (long)arg;
  long errors = 0;
  omp_set_num_threads(1 + (int)id % 2 + 1); /* 2 or 3 threads, per pthread */
  int want = 1 + (int)id % 2 + 1;
  for (int r = 0; r < 30; r++) {
    int size = 0, count = 0;
    long sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp master
      size = omp_get_num_threads();
#pragma omp atomic
      count++;
#pragma omp for schedule(dynamic, 3)
      for (int i = 0; i < 300; i++) sum += i;
#pragma omp single
      {
        for (int t = 0; t < 10; t++) {
#pragma omp task
          {
            omp_set_lock(&shared_lock);
            locked_counter++;
            omp_unset_lock(&shared_lock);
          }
        }
      }
    }
    if (size != want || count != want || sum != 44850) errors++;
    if (omp_get_max_threads() != want) errors++;
    if (omp_in_parallel() || omp_get_level() != 0) errors++;
  }
  return (void*)errors;
}

static void* inner_pthread(void* arg) {
  (void)arg;
  int c = 0;
#pragma omp parallel num_threads(2) reduction(+ : c)
  c++;
  return (void*)(long)c;
}

int main(void) {
  PHASE("concurrent pthreads");
  omp_init_lock(&shared_lock);
  pthread_t th[NPT];
  for (long i = 0; i < NPT; i++) pthread_create(&th[i], NULL, worker, (void*)i);
  long total = 0;
  for (int i = 0; i < NPT; i++) {
    void* ret;
    pthread_join(th[i], &ret);
    total += (long)ret;
  }
  CHECK(total == 0, "%ld wrong results in foreign threads", total);
  CHECK(locked_counter == NPT * 30 * 10, "tasks in foreign threads: %ld", locked_counter);
  CHECK(omp_get_max_threads() == (env_threads() > 0 ? env_threads() : omp_get_max_threads()),
        "main thread's nthreads-var changed to %d", omp_get_max_threads());

  PHASE("main and pthreads at once");
  {
    pthread_t t;
    pthread_create(&t, NULL, worker, (void*)5);
    long sum = 0;
    for (int r = 0; r < 20; r++) {
#pragma omp parallel for reduction(+ : sum)
      for (int i = 0; i < 100; i++) sum += i;
    }
    void* ret;
    pthread_join(t, &ret);
    CHECK(sum == 20 * 4950 && (long)ret == 0, "main %ld, pthread errors %ld", sum, (long)ret);
  }

  PHASE("pthread created inside a region");
  {
    long got[64] = {0};
#pragma omp parallel
    {
      pthread_t t;
      void* ret = NULL;
      if (pthread_create(&t, NULL, inner_pthread, NULL) == 0) {
        pthread_join(t, &ret);
        got[omp_get_thread_num()] = (long)ret;
      }
    }
    int bad = 0;
    for (int i = 0; i < omp_get_max_threads(); i++) bad += got[i] != 2;
    CHECK(bad == 0, "%d pthreads started inside a region did not get a team of 2", bad);
  }
  omp_destroy_lock(&shared_lock);
  return omp_check_result();
}
