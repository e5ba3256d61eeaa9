/* mixed_abi.c — one process, both ABIs (issue 37): this program is built with clang -fopenmp
 * (LLVM's ABI, libomp.so.5) and calls a library built with gcc -fopenmp (GCC's ABI,
 * libgomp.so.1). On rtpar both names reach one runtime: a region the library opens inside this
 * program's region is nested in it (level 2, the ancestor's thread number), ICVs set through one
 * ABI are read through the other, and a lock is one lock whichever ABI takes it. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gomp_inner(int* level, int* size, int* outer_tid);
void gomp_lock_set(omp_lock_t* l);
void gomp_lock_unset(omp_lock_t* l);

int main(void) {
  int failures = 0;
  omp_set_max_active_levels(2);
  int level[2] = {0, 0}, size[2] = {0, 0}, outer[2] = {-1, -1};
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    gomp_inner(&level[t], &size[t], &outer[t]);
  }
  for (int t = 0; t < 2; ++t) {
    if (level[t] != 2 || size[t] != 2 || outer[t] != t) {
      printf("FAIL thread %d: inner level %d size %d ancestor %d (want 2 2 %d)\n", t, level[t],
             size[t], outer[t], t);
      failures++;
    }
  }
  omp_lock_t lock;
  omp_init_lock(&lock);
  long count = 0;
#pragma omp parallel num_threads(2)
  for (int i = 0; i < 20000; ++i) {
    if (i % 2 == 0) {
      omp_set_lock(&lock);
      count++;
      omp_unset_lock(&lock);
    } else {
      gomp_lock_set(&lock);
      count++;
      gomp_lock_unset(&lock);
    }
  }
  omp_destroy_lock(&lock);
  if (count != 40000) {
    printf("FAIL lock: count %ld (want 40000)\n", count);
    failures++;
  }
  /* MIXED_ABI_DIR: every OpenMP runtime mapped must be in it (rtpar's libomp.so.5 and
   * libgomp.so.1), and both must be mapped. */
  const char* dir = getenv("MIXED_ABI_DIR");
  if (dir != NULL) {
    FILE* maps = fopen("/proc/self/maps", "r");
    char line[4096];
    int gomp = 0, omp = 0;
    while (maps != NULL && fgets(line, sizeof line, maps)) {
      char* path = strchr(line, '/');
      if (path == NULL) continue;
      path[strcspn(path, "\n")] = 0;
      const char* base = strrchr(path, '/') + 1;
      const int is_gomp = strncmp(base, "libgomp.so", 10) == 0,
                is_omp = strncmp(base, "libomp.so", 9) == 0;
      if (!is_gomp && !is_omp) continue;
      if (strncmp(path, dir, strlen(dir)) != 0) {
        printf("FAIL maps: %s is not rtpar's (%s)\n", path, dir);
        failures++;
      }
      gomp |= is_gomp;
      omp |= is_omp;
    }
    if (maps != NULL) fclose(maps);
    if (!gomp || !omp) {
      printf("FAIL maps: libgomp mapped %d, libomp mapped %d\n", gomp, omp);
      failures++;
    }
  }
  if (failures == 0) printf("ok\n");
  return failures != 0;
}
