/* task_depend: task dependences between siblings: out->in chains, several readers between
 * writers, inout chains, mutexinoutset (mutual exclusion without order), array-section and
 * multi-address depends, depobj objects, depend iterators, an undeferred task with depends
 * waiting for its predecessors, and taskwait depend waiting only for the named producers. */
#include "omp_check.h"

static void burn(double s) {
  double end = omp_get_wtime() + s;
  while (omp_get_wtime() < end) {
  }
}

int main(void) {
  PHASE("out -> in chain");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 50; r++) {
      int x = 0, y = 0;
#pragma omp task depend(out : x) shared(x)
      {
        burn(0.0001);
        x = 1;
      }
#pragma omp task depend(in : x) depend(out : y) shared(x, y, bad)
      {
        if (x != 1) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        y = x + 1;
      }
#pragma omp task depend(inout : y) shared(y, bad)
      {
        if (y != 2) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        y *= 10;
      }
#pragma omp taskwait
      if (y != 20) bad++;
    }
    CHECK(bad == 0, "dependence chain broken %d times", bad);
  }

  PHASE("readers between writers");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    {
      int v = 0;
      int readers_done = 0;
      for (int w = 1; w <= 10; w++) {
#pragma omp task depend(out : v) shared(v, readers_done, bad) firstprivate(w)
        {
          if (readers_done != (w - 1) * 4) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
          v = w;
        }
        for (int k = 0; k < 4; k++) {
#pragma omp task depend(in : v) shared(v, readers_done, bad) firstprivate(w)
          {
            if (v != w) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
            burn(0.00005);
            __atomic_add_fetch(&readers_done, 1, __ATOMIC_RELAXED);
          }
        }
      }
#pragma omp taskwait
      if (v != 10 || readers_done != 40) bad++;
    }
    CHECK(bad == 0, "reader/writer ordering broken %d times", bad);
  }

  PHASE("inout chain of 200");
  {
    long acc = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 200; i++) {
#pragma omp task depend(inout : acc) shared(acc) firstprivate(i)
      acc = acc * 3 % 1000003 + i;
    }
    long e = 0;
    for (int i = 0; i < 200; i++) e = e * 3 % 1000003 + i;
    CHECK(acc == e, "inout chain %ld vs %ld", acc, e);
  }

  PHASE("mutexinoutset");
  {
    int inside = 0, max_inside = 0, count = 0, after_bad = 0;
    int m = 0;
    (void)m;
#pragma omp parallel
#pragma omp single
    {
      for (int i = 0; i < 40; i++) {
#pragma omp task depend(mutexinoutset : m) shared(inside, max_inside, count)
        {
          int v = __atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED);
          if (v > max_inside) max_inside = v;
          burn(0.00005);
          count++;
          __atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED);
        }
      }
#pragma omp task depend(in : m) shared(count, after_bad)
      if (count != 40) after_bad = 1;
    }
    CHECK(max_inside == 1 && count == 40 && after_bad == 0,
          "mutexinoutset: max inside %d, count %d, reader too early %d", max_inside, count,
          after_bad);
  }

  PHASE("array sections and several addresses");
  {
    int a[10] = {0}, b[10] = {0};
    int bad = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : a [0:5], b[0]) shared(a, b)
        {burn(0.0002);
    for (int k = 0; k < 5; k++) a[k] = 1;
    b[0] = 1;
  }
#pragma omp task depend(in : a [0:5]) depend(in : b[0]) shared(a, b, bad)
  {
    if (a[4] != 1 || b[0] != 1) bad++;
  }
#pragma omp taskwait
}
CHECK(bad == 0, "array-section dependence");
}

PHASE("depobj");
{
  int x = 0, bad = 0;
  omp_depend_t dout, din;
#pragma omp depobj(dout) depend(out : x)
#pragma omp depobj(din) depend(in : x)
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(depobj : dout) shared(x)
    {
      burn(0.0002);
      x = 42;
    }
#pragma omp task depend(depobj : din) shared(x, bad)
    if (x != 42) bad = 1;
  }
#pragma omp depobj(din) update(inout)
#pragma omp depobj(dout) destroy
#pragma omp depobj(din) destroy
  CHECK(bad == 0, "depobj dependence not honoured");
}

PHASE("depend iterator");
{
  int arr[8] = {0}, bad = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < 8; k++) {
#pragma omp task depend(out : arr[k]) shared(arr) firstprivate(k)
      {
        burn(0.00005);
        arr[k] = k + 1;
      }
    }
#pragma omp task depend(iterator(j = 0 : 8), in : arr[j]) shared(arr, bad)
    {
      for (int k = 0; k < 8; k++)
        if (arr[k] != k + 1) bad = 1;
    }
  }
  CHECK(bad == 0, "depend iterator not honoured");
}

PHASE("undeferred task with depends");
{
  int x = 0, bad = 0;
#pragma omp parallel
#pragma omp single
  for (int r = 0; r < 20; r++) {
    x = 0;
#pragma omp task depend(out : x) shared(x)
    {
      burn(0.0001);
      x = r + 1;
    }
#pragma omp task if (0) depend(in : x) shared(x, bad)
    if (x != r + 1) bad++;
  }
  CHECK(bad == 0, "if(0) task ran before its predecessor %d times", bad);
}

PHASE("taskwait depend");
{
  int x = 0, y = 0, bad = 0, late = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : x) shared(x)
    {
      burn(0.0002);
      x = 1;
    }
#pragma omp task depend(out : y) shared(y, late)
    {
      burn(0.002);
      y = 1;
    }
#pragma omp taskwait depend(in : x)
    if (x != 1) bad = 1;
#pragma omp taskwait
    if (y != 1) late = 1;
  }
  CHECK(bad == 0 && late == 0, "taskwait depend: x %d, y %d", bad, late);
}

PHASE("dependences only among siblings");
{
  int x = 0, bad = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(out : x) shared(x)
    { x = 1; }
#pragma omp task shared(x, bad)
    {
      /* a child's in-dependence on x is not ordered with its parent's siblings: but after
       * taskwait in the parent's sibling set it must be done */
#pragma omp task depend(in : x) shared(x)
      { (void)x; }
#pragma omp taskwait
    }
#pragma omp taskwait
    if (x != 1) bad = 1;
  }
  CHECK(bad == 0, "sibling dependence");
}
return omp_check_result();
}
