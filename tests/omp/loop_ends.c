/* loop_ends: the implicit barrier at the end of a worksharing loop or `sections` also frees the
 * construct's work-share slot (issue 33, item 4: its last arriver does, with no member touching
 * the slot after the barrier). Long chains of loops ending in barriers, mixed with `nowait`
 * constructs that free their slots the other way, must each hand every iteration out exactly
 * once, for every schedule, as the 8-slot ring of work shares wraps around many times; guided
 * chunks must never be smaller than the chunk asked for (but the last). */
#include <stdbool.h>

#include "omp_check.h"

/* The GOMP entry points of a guided loop (GCC's libgomp ABI, which every runtime here exports). */
bool GOMP_loop_guided_start(long start, long end, long incr, long chunk, long* istart, long* iend);
bool GOMP_loop_guided_next(long* istart, long* iend);
void GOMP_loop_end_nowait(void);

/* kN is the iteration count of each loop; kRounds the number of rounds of constructs. */
#define kN 97
#define kRounds 400

int main(void) {
  PHASE("chains of barrier-ended and nowait constructs");
  {
    static int hits[6][kN];
    int sec_hits[3] = {0, 0, 0};
    int bad = 0;
#pragma omp parallel shared(hits, sec_hits, bad)
    {
      for (int r = 0; r < kRounds; ++r) {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < kN; ++i) __atomic_add_fetch(&hits[0][i], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(guided, 2) nowait
        for (int i = 0; i < kN; ++i) __atomic_add_fetch(&hits[1][i], 1, __ATOMIC_RELAXED);
#pragma omp sections
        {
#pragma omp section
          __atomic_add_fetch(&sec_hits[0], 1, __ATOMIC_RELAXED);
#pragma omp section
          __atomic_add_fetch(&sec_hits[1], 1, __ATOMIC_RELAXED);
#pragma omp section
          __atomic_add_fetch(&sec_hits[2], 1, __ATOMIC_RELAXED);
        }
#pragma omp for schedule(runtime)
        for (int i = 0; i < kN; ++i) __atomic_add_fetch(&hits[2][i], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 8) nowait
        for (int i = 0; i < kN; ++i) __atomic_add_fetch(&hits[3][i], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(guided, 5)
        for (int i = 0; i < kN; ++i) __atomic_add_fetch(&hits[4][i], 1, __ATOMIC_RELAXED);
#pragma omp for schedule(static, 3) ordered
        for (int i = 0; i < kN; ++i) {
#pragma omp ordered
          __atomic_add_fetch(&hits[5][i], 1, __ATOMIC_RELAXED);
        }
        /* after a barrier-ended loop every iteration of it is done */
#pragma omp single nowait
        if (__atomic_load_n(&hits[4][kN - 1], __ATOMIC_RELAXED) != r + 1)
          __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      }
    }
    for (int k = 0; k < 6; ++k) {
      for (int i = 0; i < kN; ++i) {
        CHECK(hits[k][i] == kRounds, "loop %d iteration %d ran %d times, expected %d", k, i,
              hits[k][i], kRounds);
      }
    }
    for (int s = 0; s < 3; ++s) {
      CHECK(sec_hits[s] == kRounds, "section %d ran %d times", s, sec_hits[s]);
    }
    CHECK(bad == 0, "a loop's iterations were not all done after its barrier (%d rounds)", bad);
  }

  PHASE("guided chunks are at least the chunk size");
  {
    for (long chunk = 1; chunk <= 9; chunk += 4) {
      int small = 0;
      long covered = 0;
#pragma omp parallel shared(small, covered)
      {
        long start, end, mine = 0;
        /* the GOMP ABI directly: the chunks as the runtime hands them out */
        for (int more = GOMP_loop_guided_start(0, 1000, 1, chunk, &start, &end); more;
             more = GOMP_loop_guided_next(&start, &end)) {
          if (end - start < chunk && end != 1000) __atomic_add_fetch(&small, 1, __ATOMIC_RELAXED);
          mine += end - start;
        }
        GOMP_loop_end_nowait();
        __atomic_add_fetch(&covered, mine, __ATOMIC_RELAXED);
      }
      CHECK(covered == 1000, "guided,%ld covered %ld of 1000 iterations", chunk, covered);
      CHECK(small == 0, "guided,%ld handed out %d chunks below the chunk size", chunk, small);
    }
  }

  return omp_check_result();
}
