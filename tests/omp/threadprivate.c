/* threadprivate: per-thread copies of scalars, arrays and structs, values persisting between
 * regions of the same team size (the same OpenMP thread must be the same copy), copyin of
 * scalars and arrays, the master's copy surviving outside regions, and nested copyin. */
#include "omp_check.h"

typedef struct {
  int id;
  double v[3];
} tp_t;
static int tp_int = 5;
static long tp_arr[8];
static tp_t tp_rec;
#pragma omp threadprivate(tp_int, tp_arr, tp_rec)

int main(void) {
  PHASE("initial value");
  {
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    bad += tp_int != 5;
    CHECK(bad == 0, "%d threads did not start with the initializer", bad);
  }

  PHASE("persistence");
  {
#pragma omp parallel
    {
      int me = omp_get_thread_num();
      tp_int = 100 + me;
      tp_arr[3] = me * 10;
      tp_rec.id = me;
      tp_rec.v[2] = me * 0.5;
    }
    int bad = 0;
    for (int r = 0; r < 20; r++) {
#pragma omp parallel reduction(+ : bad)
      {
        int me = omp_get_thread_num();
        bad += tp_int != 100 + me || tp_arr[3] != me * 10 || tp_rec.id != me ||
               tp_rec.v[2] != me * 0.5;
      }
    }
    CHECK(bad == 0, "threadprivate values lost between regions: %d", bad);
    CHECK(tp_int == 100, "master's copy outside the region: %d", tp_int);
  }

  PHASE("copyin");
  {
    tp_int = 77;
    for (int k = 0; k < 8; k++) tp_arr[k] = k * 3;
    tp_rec.id = -9;
    int bad = 0;
#pragma omp parallel copyin(tp_int, tp_arr, tp_rec) reduction(+ : bad)
    {
      bad += tp_int != 77 || tp_arr[7] != 21 || tp_rec.id != -9;
      tp_int += omp_get_thread_num();
    }
    CHECK(bad == 0, "copyin wrong on %d threads", bad);
    CHECK(tp_int == 77, "master copy after copyin region %d", tp_int);
  }

  PHASE("copyin with num_threads");
  {
    int bad = 0;
    for (int r = 0; r < 10; r++) {
      tp_int = r;
#pragma omp parallel num_threads(1 + r % 4) copyin(tp_int) reduction(+ : bad)
      bad += tp_int != r;
    }
    CHECK(bad == 0, "copyin with changing team sizes: %d", bad);
  }

  PHASE("copyprivate threadprivate");
  {
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
#pragma omp single copyprivate(tp_int)
      tp_int = 1234;
      bad += tp_int != 1234;
    }
    CHECK(bad == 0, "copyprivate of threadprivate: %d", bad);
  }
  return omp_check_result();
}
