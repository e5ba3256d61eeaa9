/* bots_uts.c — BOTS "uts": Unbalanced Tree Search, counting the nodes of an implicit tree whose
 * shape each node's hash decides (binomial tree: a node has kM children with probability kQ,
 * else none; the root has kRoot), one task per child near the root. Ours hashes with splitmix64
 * rather than UTS's SHA-1; the count is checked against a serial traversal. */
#include "wcet_kernel.h"

/* kRoot children of the root, kM of an inner node; tasks in the top kTaskDepth levels. */
enum { kRoot = 1024, kM = 4, kTaskDepth = 2 };
/* kQ is the probability of a node having children, in 1/65536: q * m just below 1 makes the
 * tree finite but deep and irregular (UTS's binomial regime). */
static const uint64_t kQ = 16200;

/* count of the last run; reference counted serially. */
static long count, reference;

/* nodes counts the subtree of node id at depth d (serially below kTaskDepth). */
static long nodes(uint64_t id, int d) {
  const uint64_t h = wk_mix(id);
  const int children = d == 0 ? kRoot : ((h & 0xffff) < kQ ? kM : 0);
  long n = 1;
  if (d < kTaskDepth) {
    long part[kRoot] = {0};
    for (int c = 0; c < children; ++c) {
#pragma omp task shared(part) firstprivate(c)
      part[c] = nodes(h + (uint64_t)c + 1, d + 1);
    }
#pragma omp taskwait
    for (int c = 0; c < children; ++c) n += part[c];
  } else {
    for (int c = 0; c < children; ++c) n += nodes(h + (uint64_t)c + 1, d + 1);
  }
  return n;
}

/* serial_nodes is nodes without tasks: the reference. */
static long serial_nodes(uint64_t id, int d) {
  const uint64_t h = wk_mix(id);
  const int children = d == 0 ? kRoot : ((h & 0xffff) < kQ ? kM : 0);
  long n = 1;
  for (int c = 0; c < children; ++c) n += serial_nodes(h + (uint64_t)c + 1, d + 1);
  return n;
}

/* setup counts serially: the reference. */
static void setup(void) { reference = serial_nodes(19, 0); }

/* run counts with tasks. */
static void run(void) {
#pragma omp parallel
#pragma omp single
  count = nodes(19, 0);
}

/* check compares with the reference and clears the count. */
static int check(void) {
  const int ok = count == reference;
  count = 0;
  return ok;
}

/* wk_uts is the uts row of Table 1. */
const WcetKernel wk_uts = {"uts", "BOTS", setup, run, check};
