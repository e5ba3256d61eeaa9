/* api: the omp_* runtime library routines for the host: wtime/wtick, num_procs, in_parallel,
 * dynamic, nested, schedule get/set (with the monotonic bit; the initial one per ABI), thread
 * limit, max threads, levels, places queries, cancellation, supported active levels, devices,
 * teams, task priority and in_final. (OpenMP 5.0 additions: api5.c.) */
#define _GNU_SOURCE
#include <sched.h>
#include "omp_check.h"

int main(void) {
  int n = env_threads();
  if (n < 1) n = omp_get_max_threads();

  PHASE("time");
  {
    double t0 = omp_get_wtime(), tick = omp_get_wtick();
    CHECK(tick > 0 && tick < 0.01, "wtick %g", tick);
    double prev = t0;
    int bad = 0;
    for (int i = 0; i < 10000; i++) {
      double t = omp_get_wtime();
      bad += t < prev;
      prev = t;
    }
    CHECK(bad == 0, "wtime went backwards %d times", bad);
    double tw[64];
#pragma omp parallel
    tw[omp_get_thread_num()] = omp_get_wtime();
    for (int i = 0; i < n; i++)
      CHECK(tw[i] >= t0 && tw[i] < t0 + 60, "thread %d wtime %g vs %g", i, tw[i], t0);
  }

  PHASE("num_procs");
  {
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    CHECK(omp_get_num_procs() == CPU_COUNT(&set), "num_procs %d, affinity has %d",
          omp_get_num_procs(), CPU_COUNT(&set));
    int inpar = 0;
#pragma omp parallel
#pragma omp master
    inpar = omp_get_num_procs();
    CHECK(inpar == CPU_COUNT(&set), "num_procs in parallel %d", inpar);
  }

  PHASE("in_parallel / threads");
  {
    CHECK(!omp_in_parallel() && omp_get_num_threads() == 1 && omp_get_thread_num() == 0,
          "sequential part state");
    int ip = -1, ip1 = -1;
#pragma omp parallel num_threads(2)
#pragma omp master
    ip = omp_in_parallel();
#pragma omp parallel num_threads(1)
    ip1 = omp_in_parallel();
    CHECK(ip == (omp_get_max_threads() >= 1 ? 1 : 0), "in_parallel in a team of 2: %d", ip);
    CHECK(ip1 == 0, "in_parallel in a team of 1: %d", ip1);
    int nested_ip = -1;
#pragma omp parallel num_threads(2)
#pragma omp master
#pragma omp parallel num_threads(1)
    nested_ip = omp_in_parallel();
    CHECK(nested_ip == 1, "in_parallel inside an inactive region nested in an active one: %d",
          nested_ip);
  }

  PHASE("dynamic");
  {
    CHECK(omp_get_dynamic() == 0, "default dynamic %d", omp_get_dynamic());
    omp_set_dynamic(1);
    CHECK(omp_get_dynamic() == 1, "set_dynamic(1) -> %d", omp_get_dynamic());
    int size = 0;
#pragma omp parallel num_threads(3)
#pragma omp master
    size = omp_get_num_threads();
    CHECK(size >= 1 && size <= 3, "dynamic team size %d", size);
    omp_set_dynamic(0);
    CHECK(omp_get_dynamic() == 0, "set_dynamic(0) -> %d", omp_get_dynamic());
  }

  PHASE("schedule");
  {
    omp_sched_t k;
    int c;
    /* The initial run-sched-var (OMP_SCHEDULE unset) is the ABI's: libgomp's dynamic,1 for
     * GCC's, LLVM's static (no chunk, no modifier) for clang's, on rtpar's libomp.so.5. */
    omp_get_schedule(&k, &c);
#if defined(__clang__)
    CHECK(k == omp_sched_static && c == 0, "initial (LLVM's ABI) -> %#x,%d", (unsigned)k, c);
#else
    CHECK(k == omp_sched_dynamic && c == 1, "initial (GCC's ABI) -> %#x,%d", (unsigned)k, c);
#endif
    omp_set_schedule(omp_sched_dynamic, 7);
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_dynamic && c == 7, "dynamic,7 -> %#x,%d", (unsigned)k, c);
    omp_set_schedule(omp_sched_guided, 3);
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_guided && c == 3, "guided,3 -> %#x,%d", (unsigned)k, c);
    omp_set_schedule(omp_sched_static, 10);
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_static && c == 10, "static,10 -> %#x,%d", (unsigned)k, c);
    omp_set_schedule(omp_sched_auto, 0);
    omp_get_schedule(&k, &c);
    CHECK(k == omp_sched_auto, "auto -> %#x", (unsigned)k);
    omp_set_schedule((omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 2);
    omp_get_schedule(&k, &c);
    CHECK(k == (omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic) && c == 2,
          "monotonic:dynamic,2 -> %#x,%d", (unsigned)k, c);
    CHECK((unsigned)omp_sched_monotonic == 0x80000000u, "monotonic bit %#x",
          (unsigned)omp_sched_monotonic);
    /* The run-sched-var is a data-environment ICV: a change in a region stays there. */
    omp_set_schedule(omp_sched_guided, 4);
    int inner_bad = 0;
#pragma omp parallel num_threads(2)
    {
      omp_sched_t ik;
      int ic;
      omp_get_schedule(&ik, &ic);
      if (ik != omp_sched_guided || ic != 4) __atomic_add_fetch(&inner_bad, 1, __ATOMIC_RELAXED);
      omp_set_schedule(omp_sched_static, 1);
    }
    omp_get_schedule(&k, &c);
    CHECK(inner_bad == 0 && k == omp_sched_guided && c == 4, "schedule inheritance %d %#x %d",
          inner_bad, (unsigned)k, c);
  }

  PHASE("limits and levels");
  {
    CHECK(omp_get_thread_limit() >= n, "thread limit %d", omp_get_thread_limit());
    CHECK(omp_get_supported_active_levels() >= 1, "supported active levels %d",
          omp_get_supported_active_levels());
    omp_set_max_active_levels(3);
    CHECK(omp_get_max_active_levels() == 3, "max active levels %d", omp_get_max_active_levels());
    omp_set_max_active_levels(omp_get_supported_active_levels() + 100);
    CHECK(omp_get_max_active_levels() <= omp_get_supported_active_levels(),
          "max active levels above supported: %d", omp_get_max_active_levels());
    omp_set_max_active_levels(1);
    CHECK(omp_get_level() == 0 && omp_get_active_level() == 0, "levels outside");
    omp_set_num_threads(2);
    CHECK(omp_get_max_threads() == 2, "set_num_threads(2) -> %d", omp_get_max_threads());
    omp_set_num_threads(n);
  }

  PHASE("places");
  {
    int np = omp_get_num_places();
    CHECK(np >= 0, "num places %d", np);
    for (int p = 0; p < np; p++) {
      int cnt = omp_get_place_num_procs(p);
      CHECK(cnt >= 1, "place %d has %d procs", p, cnt);
      int ids[256];
      if (cnt >= 1 && cnt <= 256) {
        omp_get_place_proc_ids(p, ids);
        for (int k = 0; k < cnt; k++) CHECK(ids[k] >= 0, "place %d proc %d = %d", p, k, ids[k]);
      }
    }
    CHECK(omp_get_place_num_procs(np + 5) == 0, "procs of a place out of range");
    int pn = omp_get_place_num();
    CHECK(pn >= -1 && pn < (np > 0 ? np : 1), "place num %d", pn);
    CHECK(omp_get_partition_num_places() >= 0 && omp_get_partition_num_places() <= np,
          "partition places %d", omp_get_partition_num_places());
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "default proc bind %d", omp_get_proc_bind());
  }

  PHASE("cancellation / tasks / teams / devices");
  {
    CHECK(omp_get_cancellation() == 0, "default cancellation %d", omp_get_cancellation());
    CHECK(omp_get_max_task_priority() == 0, "default max task priority %d",
          omp_get_max_task_priority());
    CHECK(!omp_in_final(), "in_final outside tasks");
    CHECK(omp_get_team_num() == 0 && omp_get_num_teams() == 1, "teams %d/%d", omp_get_team_num(),
          omp_get_num_teams());
    CHECK(omp_is_initial_device() == 1, "is_initial_device %d", omp_is_initial_device());
    CHECK(omp_get_num_devices() >= 0, "num devices %d", omp_get_num_devices());
    CHECK(omp_get_default_device() >= 0, "default device %d", omp_get_default_device());
    CHECK(omp_get_initial_device() == omp_get_num_devices(), "initial device %d (devices %d)",
          omp_get_initial_device(), omp_get_num_devices());
    omp_set_default_device(0);
    CHECK(omp_get_default_device() == 0, "set default device");
  }

  return omp_check_result();
}
