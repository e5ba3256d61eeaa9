/* target: target regions without an offload device fall back to the host (as libgomp does):
 * target with maps, target data / update / enter / exit data, target teams distribute
 * parallel for, host teams, declare target functions, and the device queries inside. */
#include "omp_check.h"

#pragma omp declare target
static int twice(int x) { return 2 * x; }
#pragma omp end declare target

int main(void) {
  PHASE("target");
  {
    int x = 1, initial = -1;
#pragma omp target map(tofrom : x, initial)
    {
      x = twice(x) + 1;
      initial = omp_is_initial_device();
    }
    CHECK(x == 3 && initial == 1, "target: x %d, initial device %d", x, initial);
  }

  PHASE("target data / update");
  {
    int a[100];
    for (int i = 0; i < 100; i++) a[i] = i;
#pragma omp target data map(tofrom : a)
    {
#pragma omp target
      for (int i = 0; i < 100; i++) a[i] += 1;
#pragma omp target update from(a)
    }
    int bad = 0;
    for (int i = 0; i < 100; i++) bad += a[i] != i + 1;
    CHECK(bad == 0, "target data: %d wrong", bad);
    int b[10] = {0};
#pragma omp target enter data map(to : b)
#pragma omp target
    b[3] = 7;
#pragma omp target exit data map(from : b)
    CHECK(b[3] == 7, "enter/exit data %d", b[3]);
  }

  PHASE("target teams distribute parallel for");
  {
    long sum = 0;
#pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : sum)
    for (int i = 0; i < 1000; i++) sum += i;
    CHECK(sum == 499500, "combined target construct sum %ld", sum);
    int hits[256] = {0};
#pragma omp target parallel for map(tofrom : hits)
    for (int i = 0; i < 256; i++) hits[i]++;
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += hits[i] != 1;
    CHECK(bad == 0, "target parallel for: %d", bad);
  }

  PHASE("host teams");
  {
    int teams = 0, seen[8] = {0};
#pragma omp teams num_teams(3)
    {
      int t = omp_get_team_num();
      if (t == 0) teams = omp_get_num_teams();
      if (t >= 0 && t < 8) __atomic_add_fetch(&seen[t], 1, __ATOMIC_RELAXED);
    }
    CHECK(teams >= 1 && teams <= 3, "host teams: %d", teams);
    for (int t = 0; t < teams; t++) CHECK(seen[t] == 1, "team %d ran %d times", t, seen[t]);
    long s = 0;
#pragma omp teams distribute parallel for reduction(+ : s) num_teams(2)
    for (int i = 0; i < 1000; i++) s += i;
    CHECK(s == 499500, "teams distribute parallel for %ld", s);
  }
  PHASE("target nowait / depend");
  {
    int x = 0, y = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp target map(tofrom : x) nowait depend(out : x)
      x = 5;
#pragma omp target map(tofrom : x, y) nowait depend(in : x)
      y = x + 1;
#pragma omp taskwait
    }
    CHECK(x == 5 && y == 6, "target nowait depend: %d %d", x, y);
  }

  PHASE("device memory routines on the host");
  {
    int host = omp_get_initial_device();
    int* p = omp_target_alloc(100 * sizeof(int), host);
    CHECK(p != NULL, "omp_target_alloc on the initial device");
    int src[100], dst[100];
    for (int i = 0; i < 100; i++) src[i] = i * i, dst[i] = 0;
    if (p) {
      CHECK(omp_target_memcpy(p, src, sizeof src, 0, 0, host, host) == 0, "target_memcpy to");
      CHECK(omp_target_memcpy(dst, p, sizeof dst, 0, 0, host, host) == 0, "target_memcpy from");
      CHECK(dst[99] == 99 * 99, "target memcpy round trip %d", dst[99]);
      omp_target_free(p, host);
    }
    CHECK(omp_target_is_present(src, host) != 0, "host memory is present on the host");
  }
  return omp_check_result();
}
