/* tasks: explicit tasks: every task runs once, firstprivate captured at creation (scalars,
 * structs, arrays, VLAs through the copy function, over-aligned data, large blocks),
 * shared data, taskwait (children only), if(0) undeferred, final + omp_in_final and included
 * descendants, mergeable, untied, priority, tasks created by every thread, deep nesting, tasks
 * outside any region, the region's end waiting for all tasks, many tasks at once. */
#include <stdint.h>
#include "omp_check.h"

typedef struct {
  _Alignas(64) double v[8];
  int tag;
} aligned_t;
typedef struct {
  char bytes[32768];
  int tag;
} big_t;

static int done[2000];

static long tree(int depth) {
  if (depth == 0) return 1;
  long a = 0, b = 0;
#pragma omp task shared(a)
  a = tree(depth - 1);
#pragma omp task shared(b)
  b = tree(depth - 1);
#pragma omp taskwait
  return a + b;
}

int main(void) {
  PHASE("every task once");
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 2000; i++) {
#pragma omp task firstprivate(i)
    __atomic_add_fetch(&done[i], 1, __ATOMIC_RELAXED);
  }
  {
    int bad = 0;
    for (int i = 0; i < 2000; i++) bad += done[i] != 1;
    CHECK(bad == 0, "%d tasks did not run exactly once", bad);
  }

  PHASE("firstprivate capture");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    {
      for (int i = 0; i < 100; i++) {
        int x = i;
        aligned_t al;
        for (int k = 0; k < 8; k++) al.v[k] = i + k;
        al.tag = i;
        int n = 1 + i % 17;
        long vla[n];
        for (int k = 0; k < n; k++) vla[k] = i * 1000 + k;
#pragma omp task firstprivate(x, al, vla) shared(bad)
        {
          int ok = x == al.tag && ((uintptr_t)&al % 64) == 0 && al.v[7] == x + 7;
          for (int k = 0; k < n; k++) ok &= vla[k] == x * 1000 + k;
          if (!ok) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        }
        x = -1; /* changes after creation must not be seen */
        al.tag = -1;
        vla[0] = -1;
      }
      big_t* b = malloc(sizeof *b);
      for (int r = 0; r < 20; r++) {
        memset(b->bytes, r, sizeof b->bytes);
        b->tag = r;
        big_t bb = *b;
#pragma omp task firstprivate(bb) shared(bad)
        {
          int ok = bb.bytes[0] == (char)bb.tag && bb.bytes[32767] == (char)bb.tag;
          if (!ok) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        }
      }
      free(b);
    }
    CHECK(bad == 0, "%d tasks saw wrong firstprivate data", bad);
  }

  PHASE("taskwait waits for children");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 50; r++) {
      int c[4] = {0, 0, 0, 0};
      for (int k = 0; k < 4; k++) {
#pragma omp task shared(c) firstprivate(k)
        {
          double end = omp_get_wtime() + 0.0001;
          while (omp_get_wtime() < end) {
          }
          c[k] = 1;
        }
      }
#pragma omp taskwait
      if (c[0] + c[1] + c[2] + c[3] != 4) bad++;
    }
    CHECK(bad == 0, "taskwait returned before its children %d times", bad);
  }

  PHASE("taskgroup waits for descendants");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 20; r++) {
      int grand = 0;
#pragma omp taskgroup
      {
#pragma omp task shared(grand)
        {
#pragma omp task shared(grand)
          {
            double end = omp_get_wtime() + 0.0002;
            while (omp_get_wtime() < end) {
            }
            __atomic_store_n(&grand, 1, __ATOMIC_RELEASE);
          }
        }
      }
      if (!__atomic_load_n(&grand, __ATOMIC_ACQUIRE)) bad++;
    }
    CHECK(bad == 0, "taskgroup ended before a grandchild task %d times", bad);
  }

  PHASE("team queries inside tasks");
  {
    int bad = 0;
#pragma omp parallel
    {
      int nt = omp_get_num_threads();
#pragma omp single
      for (int i = 0; i < 50; i++) {
#pragma omp task shared(bad) firstprivate(nt)
        {
          int t = omp_get_thread_num();
          if (t < 0 || t >= nt || omp_get_num_threads() != nt || omp_get_level() != 1 ||
              !omp_in_parallel() != (nt == 1))
            __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        }
      }
    }
    CHECK(bad == 0, "%d tasks saw wrong team queries", bad);
  }

  PHASE("tasks in nested teams");
  {
    long sum = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
      {
#pragma omp single
        for (int i = 0; i < 50; i++) {
#pragma omp task shared(sum)
          __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
        }
      }
    }
    omp_set_max_active_levels(1);
    CHECK(sum == 100, "tasks of nested teams: %ld", sum);
  }

  PHASE("if(0) is undeferred");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 100; r++) {
      int ran = 0;
#pragma omp task if (0) shared(ran)
      ran = 1;
      if (!ran) bad++;
    }
    CHECK(bad == 0, "if(0) task deferred %d times", bad);
  }

  PHASE("final / omp_in_final");
  {
    int bad = 0, finals = 0;
    CHECK(!omp_in_final(), "omp_in_final outside a task");
#pragma omp parallel
#pragma omp single
    {
#pragma omp task final(1) shared(bad, finals)
      {
        if (!omp_in_final()) bad++;
        int child_ran = 0;
#pragma omp task shared(child_ran, bad, finals)
        {
          /* included: runs immediately, and is final too */
          if (!omp_in_final()) bad++;
          child_ran = 1;
          __atomic_add_fetch(&finals, 1, __ATOMIC_RELAXED);
        }
        if (!child_ran) bad++;
      }
#pragma omp task final(0) shared(bad)
      {
        if (omp_in_final()) bad++;
      }
    }
    CHECK(bad == 0 && finals == 1, "final: %d wrong, %d included children", bad, finals);
  }

  PHASE("mergeable / untied / priority");
  {
    long sum = 0;
    int prio_bad = 0;
    CHECK(omp_get_max_task_priority() >= 0, "max task priority %d", omp_get_max_task_priority());
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 300; i++) {
      if (i % 3 == 0) {
#pragma omp task mergeable shared(sum)
        __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
      } else if (i % 3 == 1) {
#pragma omp task untied shared(sum)
        {
#pragma omp taskyield
          __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
        }
      } else {
#pragma omp task priority(i % 10) shared(sum)
        __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
      }
    }
    CHECK(sum == 299L * 300 / 2 && prio_bad == 0, "mergeable/untied/priority sum %ld", sum);
  }

  PHASE("tasks from every thread");
  {
    long sum = 0;
#pragma omp parallel
    {
      for (int i = 0; i < 200; i++) {
#pragma omp task shared(sum)
        __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(sum == 200L * omp_get_max_threads(), "every thread's tasks: %ld", sum);
  }

  PHASE("nested task tree");
  {
    long leaves = 0;
#pragma omp parallel
#pragma omp single
    leaves = tree(12);
    CHECK(leaves == 4096, "tree leaves %ld", leaves);
  }

  PHASE("tasks outside a region");
  {
    int x = 0;
#pragma omp task shared(x)
    x = 5;
#pragma omp taskwait
    CHECK(x == 5, "orphaned task %d", x);
    x = 0;
    CHECK(tree(5) == 32, "tree without a team");
  }

  PHASE("region end waits for tasks");
  {
    int c = 0;
#pragma omp parallel
    {
#pragma omp single nowait
      for (int i = 0; i < 100; i++) {
#pragma omp task shared(c)
        {
          double end = omp_get_wtime() + 0.00005;
          while (omp_get_wtime() < end) {
          }
          __atomic_add_fetch(&c, 1, __ATOMIC_RELAXED);
        }
      }
    }
    CHECK(c == 100, "region ended with %d of 100 tasks done", c);
    c = 0;
#pragma omp parallel
    {
#pragma omp single nowait
      for (int i = 0; i < 100; i++) {
#pragma omp task shared(c)
        __atomic_add_fetch(&c, 1, __ATOMIC_RELAXED);
      }
#pragma omp barrier
      /* The barrier completes every task of the team. */
      if (__atomic_load_n(&c, __ATOMIC_RELAXED) != 100)
        CHECK(0, "barrier passed with %d tasks done", c);
    }
  }

  PHASE("tasks from a worksharing loop");
  {
    long sum = 0;
#pragma omp parallel
    {
#pragma omp for schedule(dynamic) nowait
      for (int i = 0; i < 300; i++) {
#pragma omp task firstprivate(i) shared(sum)
        __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
      }
#pragma omp barrier
      if (__atomic_load_n(&sum, __ATOMIC_RELAXED) != 299L * 300 / 2)
        CHECK(0, "after the barrier: %ld", sum);
    }
  }

  PHASE("parallel regions inside tasks");
  {
    int inner[2] = {0, 0};
    for (int lvl = 1; lvl <= 2; lvl++) {
      omp_set_max_active_levels(lvl);
      int count = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
      for (int i = 0; i < 8; i++) {
#pragma omp task shared(count)
        {
#pragma omp parallel num_threads(2)
          __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
        }
      }
      inner[lvl - 1] = count;
    }
    omp_set_max_active_levels(1);
    CHECK(inner[0] == 8, "serialized regions in tasks: %d", inner[0]);
    CHECK(inner[1] >= 8 && inner[1] <= 16, "active regions in tasks: %d", inner[1]);
  }

  PHASE("large argument blocks");
  {
    typedef struct {
      char payload[32768];
    } blob_t;
    static blob_t b;
    long sum = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 1500; i++) {
      b.payload[0] = (char)i;
      b.payload[32767] = (char)(i * 3);
#pragma omp task firstprivate(b, i) shared(sum)
      {
        if (b.payload[0] == (char)i && b.payload[32767] == (char)(i * 3))
          __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(sum == 1500, "large firstprivate blocks: %ld of 1500 intact", sum);
  }

  PHASE("many pending tasks");
  {
    long sum = 0;
#pragma omp parallel
#pragma omp single
    {
      for (int i = 0; i < 100000; i++) {
#pragma omp task shared(sum)
        __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
      }
    }
    CHECK(sum == 100000, "many tasks: %ld", sum);
  }
  return omp_check_result();
}
