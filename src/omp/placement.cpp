// placement.cpp — thread affinity of a region when the program asks for binding (OpenMP 5.0
// §2.6.2; OMP_PROC_BIND / OMP_PLACES, or a proc_bind clause).
//
// The encountering task's place partition is `count` consecutive places from `first` (all places
// when its place-partition-var is unset); the master runs on place m (relative index in the
// partition, 0 when it runs outside the partition). For n members and P = count places:
//   master  every member on m; the partition is inherited.
//   close   n <= P: member i on m+i; n > P: member i on m + ⌊iP/n⌋ (consecutive members share a
//           place, ⌊n/P⌋ or ⌈n/P⌉ each). The partition is inherited.
//   spread  n <= P: the partition is cut into n subpartitions of ⌊P/n⌋ or ⌈P/n⌉ places, the first
//           starting at m; member i runs on the first place of subpartition i, which becomes its
//           partition. n > P: member i on m + ⌊iP/n⌋, its partition that one place.
// Indices wrap modulo P inside the partition. `true` binds as close (as libgomp does). Without
// binding asked for, members stay on the CPUs the team pinned them to at creation (parallel.cpp).
#include <sched.h>

#include <algorithm>

#include "omp/check_update.hpp"
#include "omp/env.hpp"
#include "omp/runtime.hpp"

namespace rtpar::omp {

namespace {

constexpr int kBindFalse = 0;
constexpr int kBindTrue = 1;
constexpr int kBindMaster = 2;
constexpr int kBindClose = 3;
constexpr int kBindSpread = 4;

// place_of_cpu is the place holding `cpu`, or -1.
int place_of_cpu(int cpu) {
  const auto& places = globals().places;
  for (std::size_t p = 0; p < places.size(); ++p) {
    if (std::find(places[p].begin(), places[p].end(), cpu) != places[p].end()) {
      return static_cast<int>(p);
    }
  }
  return -1;
}

}  // namespace

void place_region(TeamState& t, const Icvs& parent, unsigned flags) {
  const Globals& g = globals();
  const int nplaces = static_cast<int>(g.places.size());
  const int clause = static_cast<int>(flags & 7);
  int policy = clause != 0 ? clause : parent.bind;
  if (!env::binding_requested(g) || nplaces == 0 || policy == kBindFalse || policy > kBindSpread) {
    check_update(t.placed, false);
    return;
  }
  if (policy == kBindTrue) policy = kBindClose;
  const int first = parent.place_count > 0 ? parent.place_first : 0;
  const int count = parent.place_count > 0 ? parent.place_count : nplaces;
  const int here = place_of_cpu(sched_getcpu());
  int m = here < 0 ? 0 : (here - first + nplaces) % nplaces;
  if (m >= count) m = 0;
  const long n = t.nthreads;
  const long p = count;
  if (!t.placement) t.placement = std::make_unique<MemberPlace[]>(static_cast<std::size_t>(n));
  const auto abs = [&](long rel) { return static_cast<int>((first + rel % p) % nplaces); };
  // check_update, field by field: a region placed as the last one leaves the lines shared.
  for (long i = 0; i < n; ++i) {
    MemberPlace mp{-1, first, count};
    if (policy == kBindMaster) {
      mp.place = abs(m);
    } else if (policy == kBindClose) {
      mp.place = abs(m + (n <= p ? i : i * p / n));
    } else if (n <= p) {  // spread over subpartitions
      const long start = m + i * p / n;
      mp.place = abs(start);
      mp.part_first = mp.place;
      mp.part_count = static_cast<int>((i + 1) * p / n - i * p / n);
    } else {
      mp.place = abs(m + i * p / n);
      mp.part_first = mp.place;
      mp.part_count = 1;
    }
    MemberPlace& slot = t.placement[static_cast<std::size_t>(i)];
    check_update(slot.place, mp.place);
    check_update(slot.part_first, mp.part_first);
    check_update(slot.part_count, mp.part_count);
  }
  check_update(t.placed, true);
  // bind-var takes the clause's policy when the OMP_PROC_BIND list has no element for the new
  // level (as libgomp reports it); place_member_icvs applies it with the partition.
  const bool list_has_level = static_cast<std::size_t>(parent.bind_level + 1) < g.bind_list.size();
  check_update(t.placed_bind, clause != 0 && !list_has_level ? policy : -1);
}

void place_member_icvs(const TeamState& t, int rank, Icvs& icv) noexcept {
  if (!t.placed) return;
  const MemberPlace& mp = t.placement[static_cast<std::size_t>(rank)];
  icv.place_first = mp.part_first;
  icv.place_count = mp.part_count;
  if (t.placed_bind >= 0) icv.bind = t.placed_bind;
}

void bind_member(ThreadState& ts, const TeamState& t, int rank) {
  const int place = t.placement[static_cast<std::size_t>(rank)].place;
  if (place == ts.bound_place || place < 0) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : globals().places[static_cast<std::size_t>(place)]) CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) == 0) ts.bound_place = place;
}

}  // namespace rtpar::omp
