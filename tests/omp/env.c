/* env: the ICVs read from the environment. Each run passes one case name; the registration
 * (CMakeLists.txt) sets the variables that case reads:
 *   num_threads_list   OMP_NUM_THREADS=4,2     num_threads_list3  OMP_NUM_THREADS=3,2,1
 *   schedule_dynamic3  OMP_SCHEDULE=dynamic,3  schedule_mguided   OMP_SCHEDULE=monotonic:guided
 *   schedule_static4   OMP_SCHEDULE=static,4   schedule_ndynamic
 * OMP_SCHEDULE=nonmonotonic:dynamic,2 schedule_auto      OMP_SCHEDULE=auto       schedule_upper
 * OMP_SCHEDULE=GUIDED,7 dynamic_true / dynamic_false               OMP_DYNAMIC nested_true /
 * nested_false                 OMP_NESTED max_active_levels  OMP_MAX_ACTIVE_LEVELS=2
 * OMP_NUM_THREADS=2 thread_limit       OMP_THREAD_LIMIT=3 OMP_NUM_THREADS=4 wait_active /
 * wait_passive                 OMP_WAIT_POLICY proc_bind_true / proc_bind_false / proc_bind_list
 * (spread,close) places_cores / places_threads / places_list ({0},{1} + close) / places_interval
 * ({0:2}) stacksize          OMP_STACKSIZE=16M       stacksize_k        OMP_STACKSIZE=20000
 *   max_task_priority  OMP_MAX_TASK_PRIORITY=7
 *   display_env        (re-runs itself with OMP_DISPLAY_ENV=true and checks the output)
 *   display_env_verbose (the same with OMP_DISPLAY_ENV=verbose)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include "omp_check.h"

static int is(const char* a, const char* b) { return strcmp(a, b) == 0; }

static void check_schedule(omp_sched_t want_kind, int want_chunk) {
  omp_sched_t k;
  int c;
  omp_get_schedule(&k, &c);
  CHECK(k == want_kind, "omp_get_schedule kind %#x, expected %#x (OMP_SCHEDULE=%s)", (unsigned)k,
        (unsigned)want_kind, getenv("OMP_SCHEDULE"));
  if (want_chunk >= 0)
    CHECK(c == want_chunk, "omp_get_schedule chunk %d, expected %d", c, want_chunk);
}

/* runtime_loop_owners: run a schedule(runtime) loop and record who ran each iteration. */
static void runtime_loop_owners(int* owner, int n) {
  int hits[1024] = {0};
#pragma omp parallel
  {
#pragma omp for schedule(runtime)
    for (int i = 0; i < n; i++) {
      owner[i] = omp_get_thread_num();
      __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    }
  }
  int bad = 0;
  for (int i = 0; i < n; i++) bad += hits[i] != 1;
  CHECK(bad == 0, "runtime loop: %d iterations not run once", bad);
}

static void run_small_program(void) {
  long sum = 0;
  for (int r = 0; r < 50; r++) {
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp for schedule(dynamic)
      for (int i = 0; i < 100; i++) sum += i;
#pragma omp barrier
    }
  }
  CHECK(sum == 50L * 4950, "small program sum %ld", sum);
}

static void check_places_sum(const char* what) {
  int np = omp_get_num_places(), total = 0;
  CHECK(np >= 1, "%s: %d places", what, np);
  for (int p = 0; p < np; p++) total += omp_get_place_num_procs(p);
  CHECK(total == omp_get_num_procs(), "%s: %d procs in places, num_procs %d", what, total,
        omp_get_num_procs());
}

static int cpu_available(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  return CPU_ISSET(cpu, &set);
}

static void check_stack(size_t want) {
  size_t sizes[64] = {0};
  int touched = 0;
#pragma omp parallel num_threads(2)
  {
    pthread_attr_t attr;
    size_t sz = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstacksize(&attr, &sz);
      pthread_attr_destroy(&attr);
    }
    sizes[omp_get_thread_num()] = sz;
    if (omp_get_thread_num() == 1) {
      /* Use most of the requested stack. */
      volatile char* buf = __builtin_alloca(want - (1 << 20));
      for (size_t i = 0; i < want - (1 << 20); i += 4096) buf[i] = 1;
      touched = 1;
    }
  }
  if (omp_get_max_threads() >= 2) {
    CHECK(sizes[1] >= want, "worker stack %zu bytes, OMP_STACKSIZE asks %zu", sizes[1], want);
    CHECK(touched, "worker did not use its stack");
  }
}

static int display_env(const char* self, const char* mode) {
  char path[] = "/tmp/omp_display_env_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    CHECK(0, "mkstemp failed");
    return 1;
  }
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, 2);
    setenv("OMP_DISPLAY_ENV", mode, 1);
    setenv("OMP_NUM_THREADS", "3,2", 1);
    setenv("OMP_SCHEDULE", "guided,7", 1);
    setenv("OMP_MAX_TASK_PRIORITY", "5", 1);
    setenv("OMP_CANCELLATION", "true", 1);
    execl(self, self, "display_env_child", (char*)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
  FILE* f = fopen(path, "r");
  close(fd);
  unlink(path);
  char line[512];
  int begin = 0, end = 0, bad_lines = 0, in = 0;
  int seen_openmp = 0, seen_nt = 0, seen_sched = 0, seen_dyn = 0, seen_prio = 0, seen_cancel = 0,
      seen_bind = 0, seen_spin = 0;
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (is(line, "OPENMP DISPLAY ENVIRONMENT BEGIN")) {
      begin++;
      in = 1;
      continue;
    }
    if (is(line, "OPENMP DISPLAY ENVIRONMENT END")) {
      end++;
      in = 0;
      continue;
    }
    if (!in) continue;
    /* Every line between BEGIN and END reads "  NAME = 'VALUE'" (libgomp's format). */
    char name[128], value[256];
    if (sscanf(line, "  %127[A-Za-z0-9_] = '%255[^']'", name, value) != 2 &&
        sscanf(line, "  %127[A-Za-z0-9_] = ''", name) != 1) {
      if (bad_lines++ == 0) CHECK(0, "display line '%s' is not \"  NAME = 'VALUE'\"", line);
      continue;
    }
    seen_openmp |= is(line, "  _OPENMP = '201511'");
    seen_nt |= is(line, "  OMP_NUM_THREADS = '3,2'");
    seen_sched |= is(line, "  OMP_SCHEDULE = 'GUIDED,7'");
    seen_dyn |= is(line, "  OMP_DYNAMIC = 'FALSE'");
    seen_prio |= is(line, "  OMP_MAX_TASK_PRIORITY = '5'");
    seen_cancel |= is(line, "  OMP_CANCELLATION = 'TRUE'");
    seen_bind |= is(line, "  OMP_PROC_BIND = 'FALSE'");
    seen_spin |= !strncmp(line, "  GOMP_SPINCOUNT = ", 19);
  }
  if (f) fclose(f);
  CHECK(begin == 1 && end == 1, "BEGIN seen %d times, END %d times", begin, end);
  CHECK(seen_openmp, "no \"  _OPENMP = '201511'\"");
  CHECK(seen_nt, "no \"  OMP_NUM_THREADS = '3,2'\"");
  CHECK(seen_sched, "no \"  OMP_SCHEDULE = 'GUIDED,7'\"");
  CHECK(seen_dyn, "no \"  OMP_DYNAMIC = 'FALSE'\"");
  CHECK(seen_prio, "no \"  OMP_MAX_TASK_PRIORITY = '5'\"");
  CHECK(seen_cancel, "no \"  OMP_CANCELLATION = 'TRUE'\"");
  CHECK(seen_bind, "no \"  OMP_PROC_BIND = 'FALSE'\"");
  /* verbose adds implementation-specific lines (libgomp: GOMP_SPINCOUNT, ...): not required. */
  (void)seen_spin;
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CASE\n", argv[0]);
    return 2;
  }
  const char* c = argv[1];
  PHASE(c);

  if (is(c, "display_env_child")) {
    int s = 0;
#pragma omp parallel reduction(+ : s)
    s++;
    return s >= 1 ? 0 : 1;
  } else if (is(c, "num_threads_list") || is(c, "num_threads_list3")) {
    int three = is(c, "num_threads_list3");
    int l1 = three ? 3 : 4, l2 = 2;
    CHECK(omp_get_max_threads() == l1, "max threads %d, expected %d", omp_get_max_threads(), l1);
    CHECK(omp_get_max_active_levels() >= (three ? 3 : 2), "max active levels %d",
          omp_get_max_active_levels());
    int outer = 0, inner_bad = 0, inner_max_bad = 0, third_bad = 0;
#pragma omp parallel
    {
#pragma omp master
      outer = omp_get_num_threads();
      if (omp_get_max_threads() != l2) __atomic_add_fetch(&inner_max_bad, 1, __ATOMIC_RELAXED);
#pragma omp parallel
      {
        if (omp_get_num_threads() != l2) __atomic_add_fetch(&inner_bad, 1, __ATOMIC_RELAXED);
        if (three) {
#pragma omp parallel
          if (omp_get_num_threads() != 1) __atomic_add_fetch(&third_bad, 1, __ATOMIC_RELAXED);
        }
      }
    }
    CHECK(outer == l1, "outer team %d, expected %d", outer, l1);
    CHECK(inner_max_bad == 0, "nthreads-var inside level 1 is not %d (%d threads)", l2,
          inner_max_bad);
    CHECK(inner_bad == 0, "inner teams not of %d threads (%d)", l2, inner_bad);
    CHECK(third_bad == 0, "third-level teams not of 1 thread (%d)", third_bad);
  } else if (is(c, "schedule_dynamic3")) {
    check_schedule(omp_sched_dynamic, 3);
    int owner[300];
    runtime_loop_owners(owner, 300);
    int split = 0;
    for (int i = 0; i < 300; i++) split += owner[i] != owner[i - i % 3];
    CHECK(split == 0, "dynamic,3 chunks split %d times", split);
  } else if (is(c, "schedule_mguided")) {
    check_schedule((omp_sched_t)(omp_sched_guided | omp_sched_monotonic), -1);
    int owner[300];
    runtime_loop_owners(owner, 300);
  } else if (is(c, "schedule_static4")) {
    /* libgomp reports static with the monotonic bit (static is always monotonic). */
    omp_sched_t k;
    int ch;
    omp_get_schedule(&k, &ch);
    CHECK((k & ~omp_sched_monotonic) == omp_sched_static && ch == 4, "static,4 -> %#x,%d",
          (unsigned)k, ch);
    int owner[300];
    runtime_loop_owners(owner, 300);
    int nt = omp_get_max_threads(), bad = 0;
    for (int i = 0; i < 300; i++) bad += owner[i] != (i / 4) % nt;
    CHECK(bad == 0, "static,4: %d iterations on the wrong thread", bad);
  } else if (is(c, "schedule_ndynamic")) {
    check_schedule(omp_sched_dynamic, 2);
    int owner[300];
    runtime_loop_owners(owner, 300);
  } else if (is(c, "schedule_auto")) {
    check_schedule(omp_sched_auto, -1);
    int owner[300];
    runtime_loop_owners(owner, 300);
  } else if (is(c, "schedule_upper")) {
    check_schedule(omp_sched_guided, 7);
    int owner[300];
    runtime_loop_owners(owner, 300);
  } else if (is(c, "dynamic_true") || is(c, "dynamic_false")) {
    int want = is(c, "dynamic_true");
    CHECK(omp_get_dynamic() == want, "omp_get_dynamic %d", omp_get_dynamic());
    int size = 0;
#pragma omp parallel
#pragma omp master
    size = omp_get_num_threads();
    if (want)
      CHECK(size >= 1 && size <= omp_get_max_threads(), "dynamic team %d", size);
    else
      CHECK(size == omp_get_max_threads(), "team %d", size);
    run_small_program();
  } else if (is(c, "nested_true") || is(c, "nested_false")) {
    int want = is(c, "nested_true");
    CHECK(omp_get_nested() == want, "omp_get_nested %d", omp_get_nested());
    CHECK(want ? omp_get_max_active_levels() > 1 : omp_get_max_active_levels() == 1,
          "max active levels %d", omp_get_max_active_levels());
    int inner = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
#pragma omp master
    __atomic_add_fetch(&inner, omp_get_num_threads(), __ATOMIC_RELAXED);
    CHECK(inner == (want ? 4 : 2), "inner team sizes sum %d", inner);
  } else if (is(c, "max_active_levels")) {
    CHECK(omp_get_max_active_levels() == 2, "max active levels %d", omp_get_max_active_levels());
    CHECK(omp_get_nested() == 1, "omp_get_nested %d with 2 active levels", omp_get_nested());
    int l2 = 0, l3 = 0;
#pragma omp parallel
#pragma omp parallel
    {
#pragma omp master
      __atomic_add_fetch(&l2, omp_get_num_threads(), __ATOMIC_RELAXED);
#pragma omp parallel
#pragma omp master
      __atomic_add_fetch(&l3, omp_get_num_threads() * 100 + omp_get_active_level(),
                         __ATOMIC_RELAXED);
    }
    CHECK(l2 == 4, "level-2 team sizes sum %d, expected 4", l2);
    CHECK(l3 == 4 * 102, "level-3 teams %d, expected 4 inactive regions", l3);
  } else if (is(c, "thread_limit")) {
    CHECK(omp_get_thread_limit() == 3, "thread limit %d", omp_get_thread_limit());
    int a = 0, b = 0;
#pragma omp parallel
#pragma omp master
    a = omp_get_num_threads();
#pragma omp parallel num_threads(8)
#pragma omp master
    b = omp_get_num_threads();
    CHECK(a >= 1 && a <= 3 && b >= 1 && b <= 3, "teams %d and %d exceed the limit 3", a, b);
  } else if (is(c, "wait_active") || is(c, "wait_passive")) {
    run_small_program();
  } else if (is(c, "proc_bind_true")) {
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "proc bind %d", omp_get_proc_bind());
    int bad = 0, np = omp_get_num_places();
    CHECK(np >= 1, "bound but %d places", np);
#pragma omp parallel reduction(+ : bad)
    {
      int p = omp_get_place_num();
      bad += p < 0 || p >= np;
    }
    CHECK(bad == 0, "%d threads outside the places", bad);
    run_small_program();
  } else if (is(c, "proc_bind_false")) {
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "proc bind %d", omp_get_proc_bind());
    int pn = 0;
#pragma omp parallel
#pragma omp master
    pn = omp_get_place_num();
    CHECK(pn == -1, "unbound thread at place %d", pn);
  } else if (is(c, "proc_bind_list")) {
    CHECK(omp_get_proc_bind() == omp_proc_bind_spread, "level 0 proc bind %d", omp_get_proc_bind());
    int inner = -1;
#pragma omp parallel num_threads(2)
#pragma omp master
    inner = omp_get_proc_bind();
    CHECK(inner == omp_proc_bind_close, "level 1 proc bind %d", inner);
  } else if (is(c, "places_cores") || is(c, "places_threads")) {
    check_places_sum(c);
    if (is(c, "places_threads"))
      CHECK(omp_get_num_places() == omp_get_num_procs(), "threads: %d places, %d procs",
            omp_get_num_places(), omp_get_num_procs());
    run_small_program();
  } else if (is(c, "places_list")) {
    if (!cpu_available(0) || !cpu_available(1)) {
      fprintf(stderr, "skip: CPUs 0 and 1 are not both available\n");
      return 0;
    }
    CHECK(omp_get_num_places() == 2, "{0},{1}: %d places", omp_get_num_places());
    int ids[4] = {-1, -1, -1, -1};
    omp_get_place_proc_ids(0, &ids[0]);
    omp_get_place_proc_ids(1, &ids[1]);
    CHECK(omp_get_place_num_procs(0) == 1 && ids[0] == 0 && ids[1] == 1, "place procs %d %d",
          ids[0], ids[1]);
    int place[2] = {-5, -5}, cpu_ok[2] = {0, 0};
#pragma omp parallel num_threads(2) proc_bind(close)
    {
      int t = omp_get_thread_num();
      place[t] = omp_get_place_num();
      cpu_set_t set;
      CPU_ZERO(&set);
      pthread_getaffinity_np(pthread_self(), sizeof set, &set);
      cpu_ok[t] = CPU_COUNT(&set) == 1 && CPU_ISSET(t, &set);
    }
    CHECK(place[0] == 0 && place[1] == 1, "threads at places %d %d", place[0], place[1]);
    CHECK(cpu_ok[0] && cpu_ok[1], "threads not pinned to their place's CPU (%d %d)", cpu_ok[0],
          cpu_ok[1]);
  } else if (is(c, "places_interval")) {
    if (!cpu_available(0) || !cpu_available(1)) {
      fprintf(stderr, "skip: CPUs 0 and 1 are not both available\n");
      return 0;
    }
    CHECK(omp_get_num_places() == 1, "{0:2}: %d places", omp_get_num_places());
    int ids[4] = {-1, -1, -1, -1};
    CHECK(omp_get_place_num_procs(0) == 2, "{0:2}: %d procs", omp_get_place_num_procs(0));
    omp_get_place_proc_ids(0, ids);
    CHECK(ids[0] == 0 && ids[1] == 1, "{0:2}: procs %d %d", ids[0], ids[1]);
  } else if (is(c, "stacksize")) {
    check_stack(16u << 20);
  } else if (is(c, "stacksize_k")) {
    check_stack(20000u << 10);
  } else if (is(c, "max_task_priority")) {
    CHECK(omp_get_max_task_priority() == 7, "max task priority %d", omp_get_max_task_priority());
    long s = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 100; i++) {
#pragma omp task priority(i % 12) shared(s)
      __atomic_add_fetch(&s, i, __ATOMIC_RELAXED);
    }
    CHECK(s == 4950, "prioritized tasks sum %ld", s);
  } else if (is(c, "display_env") || is(c, "display_env_verbose")) {
    display_env(argv[0], is(c, "display_env") ? "true" : "verbose");
  } else {
    fprintf(stderr, "unknown case %s\n", c);
    return 2;
  }
  return omp_check_result();
}
