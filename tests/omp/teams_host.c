/* teams_host: the host `teams` construct built with clang (__kmpc_fork_teams,
 * __kmpc_push_num_teams, `distribute` through __kmpc_for_static_init's distribute schedules and
 * `distribute parallel for` through __kmpc_dist_for_static_init_*): every team runs once with its
 * number, num_teams and thread_limit are honoured, distribute hands each iteration to exactly one
 * team (and, combined with a parallel loop, to one thread), reductions over teams combine. */
#include "omp_check.h"

#define N 1000
static int hits[N];
static long long hits64[N];

int main(void) {
  PHASE("teams num_teams thread_limit");
  {
    int seen[8] = {0}, nteams = 0, limit = 0;
#pragma omp teams num_teams(4) thread_limit(2)
    {
      int t = omp_get_team_num();
      if (t >= 0 && t < 8) __atomic_add_fetch(&seen[t], 1, __ATOMIC_RELAXED);
      if (t == 0) {
        nteams = omp_get_num_teams();
        limit = omp_get_thread_limit();
      }
    }
    CHECK(nteams == 4, "omp_get_num_teams %d", nteams);
    CHECK(limit == 2, "omp_get_thread_limit %d in a team", limit);
    for (int t = 0; t < 4; t++) CHECK(seen[t] == 1, "team %d ran %d times", t, seen[t]);
  }

  PHASE("distribute");
  {
    memset(hits, 0, sizeof hits);
#pragma omp teams distribute num_teams(3)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    for (int i = 0; i < N; i++) CHECK(hits[i] == 1, "iteration %d ran %d times", i, hits[i]);
  }

  PHASE("distribute dist_schedule(static, 7)");
  {
    memset(hits, 0, sizeof hits);
#pragma omp teams distribute num_teams(3) dist_schedule(static, 7)
    for (int i = 0; i < N; i++) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    for (int i = 0; i < N; i++) CHECK(hits[i] == 1, "iteration %d ran %d times", i, hits[i]);
  }

  PHASE("distribute parallel for");
  {
    memset(hits, 0, sizeof hits);
    int inside = 0;
#pragma omp teams distribute parallel for num_teams(3) thread_limit(3)
    for (int i = 0; i < N; i++) {
      __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
      if (omp_get_num_threads() > 3) __atomic_store_n(&inside, 1, __ATOMIC_RELAXED);
    }
    for (int i = 0; i < N; i++) CHECK(hits[i] == 1, "iteration %d ran %d times", i, hits[i]);
    CHECK(inside == 0, "a team's parallel region exceeded thread_limit(3)");
  }

  PHASE("distribute parallel for schedule(static, 5), 64-bit");
  {
    memset(hits64, 0, sizeof hits64);
#pragma omp teams distribute parallel for num_teams(2) schedule(static, 5)
    for (long long i = 0; i < N; i++) __atomic_add_fetch(&hits64[i], 1, __ATOMIC_RELAXED);
    for (int i = 0; i < N; i++) CHECK(hits64[i] == 1, "iteration %d ran %lld times", i, hits64[i]);
  }

  PHASE("distribute parallel for lastprivate, unsigned");
  {
    unsigned last = 0;
#pragma omp teams distribute parallel for num_teams(3) lastprivate(last)
    for (unsigned i = 0; i < N; i++) last = i;
    CHECK(last == N - 1, "lastprivate %u", last);
  }

  PHASE("teams reduction");
  {
    long sum = 0;
#pragma omp teams distribute parallel for num_teams(4) reduction(+ : sum)
    for (int i = 1; i <= N; i++) sum += i;
    CHECK(sum == (long)N * (N + 1) / 2, "sum %ld", sum);
  }
  return omp_check_result();
}
