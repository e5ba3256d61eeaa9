/* proc_bind.c — the proc_bind policies place the members as OpenMP 5.0 §2.6.2 says, with
 * OMP_PLACES set (the initial thread is bound to place 0): master puts everyone on the master's
 * place, close on consecutive places, spread on the first place of equal subpartitions, which
 * become the members' partitions; with more members than places, consecutive members share one.
 * Checks omp_get_place_num and the partition queries for n = P and n = 2P. */
#include <omp.h>
#include <stdio.h>

static int failures;

#define EXPECT(cond, ...)              \
  do {                                 \
    if (!(cond)) {                     \
      _Pragma("omp critical") {        \
        fprintf(stderr, __VA_ARGS__);  \
        failures++;                    \
      }                                \
    }                                  \
  } while (0)

static void check(int n) {
  const int p = omp_get_num_places();
#pragma omp parallel num_threads(n) proc_bind(master)
  EXPECT(omp_get_place_num() == 0, "master n=%d: t%d on place %d\n", n, omp_get_thread_num(),
         omp_get_place_num());
#pragma omp parallel num_threads(n) proc_bind(close)
  {
    const int i = omp_get_thread_num();
    const int want = n <= p ? i % p : (int)((long)i * p / n);
    EXPECT(omp_get_place_num() == want, "close n=%d: t%d on place %d, want %d\n", n, i,
           omp_get_place_num(), want);
    EXPECT(omp_get_partition_num_places() == p, "close n=%d: partition %d\n", n,
           omp_get_partition_num_places());
  }
#pragma omp parallel num_threads(n) proc_bind(spread)
  {
    const int i = omp_get_thread_num();
    const int want = (int)((long)i * p / n);
    const int size = n <= p ? (int)((long)(i + 1) * p / n - (long)i * p / n) : 1;
    int first = -1;
    omp_get_partition_place_nums(&first);
    EXPECT(omp_get_place_num() == want, "spread n=%d: t%d on place %d, want %d\n", n, i,
           omp_get_place_num(), want);
    EXPECT(omp_get_partition_num_places() == size && first == want,
           "spread n=%d: t%d partition %d from %d, want %d from %d\n", n, i,
           omp_get_partition_num_places(), first, size, want);
  }
}

int main(void) {
  const int p = omp_get_num_places();
  if (p < 1) {
    fprintf(stderr, "proc_bind: no places (run with OMP_PLACES set)\n");
    return 1;
  }
  check(p);
  check(2 * p);
  if (failures == 0) printf("proc_bind: placements right for %d places\n", p);
  return failures != 0;
}
