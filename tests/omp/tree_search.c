/* tree_search.c: an unbalanced-tree search with `task` + `taskwait` at every level (the shape of
 * the UTS benchmark's binomial trees: each node has 5 children with probability q, else none),
 * deep enough (1,111 levels, 1.48 million tasks by default) that a member suspended in a taskwait
 * may start only a sliver of the queued tasks (OpenMP 5.0 §2.10.6, Task Scheduling Constraint 2).
 * Registered at 1-4 and 8 threads on a 2-CPU machine: with more members than CPUs, rtpar's task
 * waits once polled with growing sleeps and its suspended members moved every task they could not
 * run to one shared list, so this shape did not finish in 60 s at 4 threads (issue 33). The node
 * count is checked against a serial walk of the same tree; the runner's timeout is the hang check.
 * Arguments: [Q_PER_MILLION [ROOT_CHILDREN]] (defaults 199900 2000; 199990 2000 is the
 * 8 M-task, 4,783-level tree of docs/bench-omp.md). */
#include <stdint.h>

#include "omp_check.h"

#define KIDS 5

static long q_ppm = 199900;
static int roots = 2000;
static int deepest;

/* mix is splitmix64's finalizer: a node's id decides its children, so every run builds one tree. */
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* children is the number of children of node `id` at `depth`. */
static int children(uint64_t id, int depth) {
  if (depth == 0) return roots;
  return (long)(mix(id) % 1000000) < q_ppm ? KIDS : 0;
}

/* serial_count counts the subtree of `id` without tasks (explicit stack: the tree is deep). */
static long serial_count(void) {
  long n = 0;
  size_t cap = 1024, top = 0;
  uint64_t* ids = malloc(cap * sizeof *ids);
  int* depths = malloc(cap * sizeof *depths);
  ids[top] = 1;
  depths[top++] = 0;
  while (top > 0) {
    uint64_t id = ids[--top];
    int d = depths[top];
    ++n;
    int k = children(id, d);
    for (int i = 0; i < k; ++i) {
      if (top == cap) {
        cap *= 2;
        ids = realloc(ids, cap * sizeof *ids);
        depths = realloc(depths, cap * sizeof *depths);
      }
      ids[top] = mix(id * 31 + (uint64_t)i + 1);
      depths[top++] = d + 1;
    }
  }
  free(ids);
  free(depths);
  return n;
}

/* count counts the subtree of `id` with one task per child and a taskwait per node. */
static long count(uint64_t id, int depth) {
  int k = children(id, depth);
  long* sub = k > 0 ? malloc(sizeof(long) * (size_t)k) : NULL;
  for (int i = 0; i < k; ++i) {
#pragma omp task firstprivate(i, sub)
    sub[i] = count(mix(id * 31 + (uint64_t)i + 1), depth + 1);
  }
#pragma omp taskwait
  long n = 1;
  for (int i = 0; i < k; ++i) n += sub[i];
  free(sub);
  int seen = __atomic_load_n(&deepest, __ATOMIC_RELAXED);
  while (depth > seen &&
         !__atomic_compare_exchange_n(&deepest, &seen, depth, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
  return n;
}

int main(int argc, char** argv) {
  if (argc > 1) q_ppm = atol(argv[1]);
  if (argc > 2) roots = atoi(argv[2]);
  PHASE("serial walk");
  long want = serial_count();
  PHASE("task search");
  long got = 0;
#pragma omp parallel
#pragma omp single
  got = count(1, 0);
  CHECK(got == want, "the task search counted %ld nodes, the serial walk %ld", got, want);
  printf("tree_search: %ld nodes, %d levels\n", got, deepest + 1);
  CHECK(deepest > 100, "the tree is only %d levels deep (q = %ld per million)", deepest, q_ppm);
  return omp_check_result();
}
