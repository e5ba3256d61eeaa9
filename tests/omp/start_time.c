/* start_time: when the runtime reads its environment. LLVM's runtime starts at the first OpenMP
 * call, so a clang-built program may set OMP_SCHEDULE with setenv() in main before it and sees
 * it (LLVM's own worksharing/for/kmp_sch_simd_runtime_static.c does); libgomp reads it when the
 * library is loaded, before main. rtpar follows the personality the program was built for
 * (src/omp/display_env.cpp). ARGS: "first-call" (clang builds) or "load" (GCC builds). */
#include "omp_check.h"

int main(int argc, char** argv) {
  const int first_call = argc > 1 && strcmp(argv[1], "first-call") == 0;
  /* Runs before any OpenMP call. The runner's environment sets no OMP_SCHEDULE. */
  CHECK(getenv("OMP_SCHEDULE") == NULL, "the runner set OMP_SCHEDULE");
  setenv("OMP_SCHEDULE", "static,3", 1);
  omp_sched_t kind;
  int chunk = 0;
  omp_get_schedule(&kind, &chunk);
  const int seen = (kind & ~omp_sched_monotonic) == omp_sched_static && chunk == 3;
  if (first_call) {
    CHECK(seen, "OMP_SCHEDULE set in main not seen at the first call: kind %d chunk %d",
          (int)kind, chunk);
  } else {
    CHECK(!seen, "OMP_SCHEDULE set in main seen by a runtime read at load time");
  }
  /* The runtime works either way. */
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n++;
  CHECK(n == omp_get_max_threads(), "team %d", n);
  return omp_check_result();
}
