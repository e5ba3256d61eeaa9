// teams.cpp — the `teams` construct on the host (OpenMP 5.1 §2.7) and its routines.
//
// rtpar runs host teams ONE AFTER ANOTHER on the encountering thread: team i's initial task runs
// fn(data) with omp_get_team_num() = i, and its parallel regions use the workers as usual. The
// specification lets teams run in any order and forbids synchronisation between them, and this
// is what libgomp does for `target teams` falling back to the host (GOMP_teams4); it keeps the
// team count from multiplying the threads on a small machine. team_num and num_teams travel in
// the task's Icvs so that every region and task inside a team sees them.
#include <algorithm>
#include <atomic>
#include <climits>

#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// kDefaultTeams is the team count of a `teams` without num_teams when nteams-var is unset
// (libgomp's host choice).
constexpr int kDefaultTeams = 3;

// nteams_var is nteams-var (device-wide; omp_set_num_teams). relaxed: an independent value.
std::atomic<int> nteams_var{-1};

// teams_thread_limit_var is teams-thread-limit-var (device-wide). relaxed: an independent value.
std::atomic<int> teams_thread_limit_var{-1};

// nteams is nteams-var's current value (0: unset).
int nteams() noexcept {
  const int v = nteams_var.load(std::memory_order_relaxed);  // relaxed: see nteams_var
  return v >= 0 ? v : globals().nteams;
}

// teams_thread_limit is teams-thread-limit-var's current value (0: unset).
int teams_thread_limit() noexcept {
  // relaxed: see teams_thread_limit_var
  const int v = teams_thread_limit_var.load(std::memory_order_relaxed);
  return v >= 0 ? v : globals().teams_thread_limit;
}

// clamp_limit turns a thread_limit clause value into a thread-limit-var value.
int clamp_limit(unsigned limit) noexcept {
  return limit > static_cast<unsigned>(INT_MAX) ? INT_MAX : static_cast<int>(limit);
}

}  // namespace

// GOMP_teams_reg runs `teams num_teams(num_teams) thread_limit(thread_limit)` on the host:
// fn(data) once per team, in team order (0 in a clause: the ICVs or the default).
RTPAR_OMP_EXPORT void GOMP_teams_reg(void (*fn)(void*), void* data, unsigned num_teams,
                                     unsigned thread_limit, unsigned /*flags*/) {
  ThreadState& ts = self();
  Icvs& icv = ts.task->icv;
  const Icvs saved = icv;
  int n = num_teams != 0 ? static_cast<int>(std::min<unsigned>(num_teams, INT_MAX)) : nteams();
  if (n <= 0) n = kDefaultTeams;
  if (thread_limit == 0) thread_limit = static_cast<unsigned>(teams_thread_limit());
  for (int i = 0; i < n; ++i) {
    icv = saved;
    icv.team_num = i;
    icv.num_teams = n;
    if (thread_limit != 0) icv.thread_limit = clamp_limit(thread_limit);
    fn(data);
  }
  icv = saved;
}

// GOMP_teams4 drives `teams` inside a target region run on the host: the body is a loop that
// calls it with first = true, then false after each team; it returns false after the last team.
// Runs num_teams_low teams (at least one), as libgomp's host fallback does.
RTPAR_OMP_EXPORT bool GOMP_teams4(unsigned num_teams_low, unsigned /*num_teams_high*/,
                                  unsigned thread_limit, bool first) {
  Icvs& icv = self().task->icv;
  if (first) {
    if (thread_limit != 0) icv.thread_limit = clamp_limit(thread_limit);
    icv.num_teams =
        num_teams_low == 0 ? 1 : static_cast<int>(std::min<unsigned>(num_teams_low, INT_MAX));
    icv.team_num = 0;
    return true;
  }
  if (icv.team_num + 1 >= icv.num_teams) {
    icv.team_num = 0;
    icv.num_teams = 1;
    return false;
  }
  ++icv.team_num;
  return true;
}

// GOMP_teams is the GCC 4.x/5.x form inside a host-fallback target region: one team, with the
// thread limit applied.
RTPAR_OMP_EXPORT void GOMP_teams(unsigned /*num_teams*/, unsigned thread_limit) {
  if (thread_limit != 0) self().task->icv.thread_limit = clamp_limit(thread_limit);
}

// omp_get_num_teams is the number of teams of the enclosing `teams` (1 outside).
RTPAR_OMP_EXPORT int omp_get_num_teams() { return self().task->icv.num_teams; }

// omp_get_team_num is the caller's team number (0 outside `teams`).
RTPAR_OMP_EXPORT int omp_get_team_num() { return self().task->icv.team_num; }

// omp_set_num_teams sets nteams-var (values below 1 are ignored).
RTPAR_OMP_EXPORT void omp_set_num_teams(int n) {
  if (n > 0) nteams_var.store(n, std::memory_order_relaxed);  // relaxed: see nteams_var
}

// omp_get_max_teams reads nteams-var (0 when unset, as libgomp reports).
RTPAR_OMP_EXPORT int omp_get_max_teams() { return nteams(); }

// omp_set_teams_thread_limit sets teams-thread-limit-var (values below 1 are ignored).
RTPAR_OMP_EXPORT void omp_set_teams_thread_limit(int n) {
  // relaxed: see teams_thread_limit_var
  if (n > 0) teams_thread_limit_var.store(n, std::memory_order_relaxed);
}

// omp_get_teams_thread_limit reads teams-thread-limit-var (0 when unset).
RTPAR_OMP_EXPORT int omp_get_teams_thread_limit() { return teams_thread_limit(); }

}  // namespace rtpar::omp
