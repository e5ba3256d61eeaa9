// confinement.cpp — the members of a team stay inside the encountering thread's CPUs.
//
// A robotics node runs each callback on its own thread, pinned to a few CPUs at SCHED_FIFO, and
// calls OpenMP code from it. Its regions' members must run only on that thread's CPUs: a member
// elsewhere preempts the real-time work the application put there (docs/openmp.md, "Threads of
// your own"). The rule, for every team whose master is not a real-time task's bound master
// (binding.cpp) and whose CPUs the executor did not fix (rtpar_omp_set_unbound_cpus):
//   - the encountering mask is the master's affinity mask — for a member of a confined team
//     opening a nested region, its team's mask (rtpar pinned that member to one CPU of it; the
//     user's mask is the team's);
//   - with at least as many CPUs as members, member r is pinned to one CPU of the mask, chosen as
//     the process-wide pinning chooses among all CPUs (the first CPU of each place, in place order,
//     starting after the master's); with fewer, every member may run on all of the mask's CPUs
//     and the team blocks instead of spinning (parallel.cpp): a spinning member would burn the
//     time slice — or, at SCHED_FIFO, hold the CPU — of the member it waits for;
//   - when the mask changes between regions, each member moves itself (one sched_setaffinity) at
//     its next region start. The master notices a change at a region start when it runs outside
//     the team's mask, and otherwise reads the mask again once per tick of the coarse clock
//     (CLOCK_MONOTONIC_COARSE, a few ms): reading it at every region would cost a system call
//     (0.15-0.4 µs here) on a fork of about 0.4 µs.
// Teams placed by OMP_PLACES / OMP_PROC_BIND / proc_bind follow the places instead: OpenMP builds
// them from the initial thread's mask, as libgomp does (placement.cpp).
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>

#include "omp/env.hpp"
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

// encountering_mask is the mask the team of a region opened by ts must stay in (file comment).
void encountering_mask(const ThreadState& ts, cpu_set_t& out) {
  if (ts.team != nullptr && ts.team->confined) {
    out = ts.team->mask;
    return;
  }
  CPU_ZERO(&out);
  if (sched_getaffinity(0, sizeof(out), &out) != 0) {
    // Unreadable (never seen): the CPUs the process started with.
    for (const int cpu : globals().cpus) CPU_SET(cpu, &out);
  }
}

// arrange fills t's arrangement for `mask`: the CPUs members are pinned to (the first CPU of each
// place that is in the mask, in place order; when none is, the mask's CPUs ascending), the master's
// position among them, and whether members are pinned (one CPU each) or share the whole mask.
void arrange(TeamState& t, const cpu_set_t& mask, bool pin) {
  t.mask = mask;
  t.mask_cpus.clear();
  for (const int cpu : globals().cpus) {
    if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &mask)) t.mask_cpus.push_back(cpu);
  }
  if (t.mask_cpus.empty()) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &mask)) t.mask_cpus.push_back(cpu);
    }
  }
  const auto k = static_cast<int>(t.mask_cpus.size());
  const int here = sched_getcpu();
  const auto it = std::find(t.mask_cpus.begin(), t.mask_cpus.end(), here);
  // A master off the list puts member r on the r-th CPU (as member_cpu_of does).
  t.mask_base = it == t.mask_cpus.end() ? k - 1 : static_cast<int>(it - t.mask_cpus.begin());
  t.mask_pinned = pin && k > 0 && t.nthreads <= k;
  ++t.arrangement;
}

// coarse_tick reads CLOCK_MONOTONIC_COARSE (vDSO, no system call) in ns.
std::int64_t coarse_tick() noexcept {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

bool pinning() {
  const Globals& g = globals();
  return !(g.bind_set && g.initial.bind == 0);
}

bool confine_team(const ThreadState& ts, TeamState& t) {
  t.confined = true;
  cpu_set_t mask;
  encountering_mask(ts, mask);
  t.member_arrangement = std::make_unique<std::uint32_t[]>(static_cast<std::size_t>(t.nthreads));
  arrange(t, mask, pinning());
  t.mask_tick = coarse_tick();
  return t.nthreads > static_cast<int>(t.mask_cpus.size());
}

bool confine_check(const ThreadState& ts, TeamState& t) {
  const int here = sched_getcpu();
  const bool outside = here < 0 || here >= CPU_SETSIZE || !CPU_ISSET(here, &t.mask);
  const std::int64_t tick = coarse_tick();
  if (!outside && tick == t.mask_tick) return true;
  t.mask_tick = tick;
  cpu_set_t mask;
  encountering_mask(ts, mask);
  if (CPU_EQUAL(&mask, &t.mask)) return true;
  arrange(t, mask, pinning());
  // A team created to spin may not become oversubscribed: its wait policy is fixed.
  return !(t.nthreads > static_cast<int>(t.mask_cpus.size()) && t.wait.kind != WaitKind::block);
}

void confine_member(TeamState& t, int rank) {
  cpu_set_t set;
  if (t.mask_pinned) {
    const auto k = static_cast<std::size_t>(t.mask_cpus.size());
    CPU_ZERO(&set);
    CPU_SET(
        t.mask_cpus[(static_cast<std::size_t>(t.mask_base) + static_cast<std::size_t>(rank)) % k],
        &set);
  } else {
    set = t.mask;
  }
  // Refused only for CPUs the process may not use (a cpuset changed under it): the member then
  // stays where it is, inside the old mask.
  (void)sched_setaffinity(0, sizeof(set), &set);
  t.member_arrangement[static_cast<std::size_t>(rank)] = t.arrangement;
}

}  // namespace rtpar::omp
