/* display_affinity.c — OMP_DISPLAY_AFFINITY (OpenMP 5.0 §6.14): each thread's line is shown on
 * entering its first region and again only when what its format shows changes. Run with
 * OMP_DISPLAY_AFFINITY=true and OMP_AFFINITY_FORMAT="n=%N t=%n": three regions of 2 show
 * "n=2 t=0" and "n=2 t=1" once each, a region of 1 then shows "n=1 t=0". Exit 0 when so. */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* sink keeps the regions: GCC removes an empty `parallel` at -O2. One slot per thread (at most
 * 2 per region): a single shared sink written by both members is a data race (TSan reports it). */
volatile int sink[2];

int main(void) {
  FILE* captured = tmpfile();
  if (captured == NULL) return 2;
  fflush(stderr);
  const int saved = dup(2);
  dup2(fileno(captured), 2);
  for (int i = 0; i < 3; ++i) {
#pragma omp parallel num_threads(2)
    sink[omp_get_thread_num()] = 1;
  }
#pragma omp parallel num_threads(1)
  sink[omp_get_thread_num()] = 1;
  fflush(stderr);
  dup2(saved, 2);
  rewind(captured);
  char line[256];
  int n2t0 = 0, n2t1 = 0, n1t0 = 0, other = 0;
  while (fgets(line, sizeof line, captured) != NULL) {
    if (strcmp(line, "n=2 t=0\n") == 0) {
      ++n2t0;
    } else if (strcmp(line, "n=2 t=1\n") == 0) {
      ++n2t1;
    } else if (strcmp(line, "n=1 t=0\n") == 0) {
      ++n1t0;
    } else {
      ++other;
      fprintf(stderr, "unexpected line: %s", line);
    }
  }
  if (n2t0 != 1 || n2t1 != 1 || n1t0 != 1 || other != 0) {
    fprintf(stderr, "FAIL display_affinity: n=2 t=0 x%d, n=2 t=1 x%d, n=1 t=0 x%d, other %d\n",
            n2t0, n2t1, n1t0, other);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
