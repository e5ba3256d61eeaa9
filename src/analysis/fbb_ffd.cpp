// fbb_ffd.cpp — see fbb_ffd.hpp.
#include "analysis/fbb_ffd.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace rtpar::analysis {

namespace {

// rbf_star is Σ_j RBF*_q(τ_j, d) over the strands `on_core` for a candidate strand s (see the
// header); offset_aware = false gives FBB's original RBF.
__int128 rbf_star(const std::vector<FbbStrand>& strands, const std::vector<std::size_t>& on_core,
                  const FbbStrand& s, bool offset_aware) {
  // Group the core's strands by task, then by segment: e·m per segment and its offset.
  std::map<std::size_t, std::map<std::size_t, std::pair<__int128, std::int64_t>>> by_task;
  for (const std::size_t k : on_core) {
    const FbbStrand& x = strands[k];
    auto& seg = by_task[x.task][x.segment];
    seg.first += x.wcet;
    seg.second = x.offset;
  }
  const std::int64_t d = s.window;
  __int128 total = 0;
  for (const auto& [task, segments] : by_task) {
    if (task == s.task) {
      const auto it = segments.find(s.segment);
      if (it != segments.end()) total += it->second.first;
      continue;
    }
    std::int64_t t_j = 0;
    __int128 sum_em = 0;
    for (const std::size_t k : on_core) {
      if (strands[k].task == task) t_j = strands[k].period;
    }
    for (const auto& [index, seg] : segments) sum_em += seg.first;
    const __int128 periodic = (static_cast<__int128>(d) * sum_em + t_j - 1) / t_j;
    __int128 burst = 0;
    if (!offset_aware) {
      burst = sum_em;
    } else {
      for (const auto& [l, start] : segments) {
        __int128 within = 0;
        for (const auto& [p, seg] : segments) {
          const std::int64_t delta = ((seg.second - start.second) % t_j + t_j) % t_j;
          if (delta < d) within += seg.first;
        }
        burst = std::max(burst, within);
      }
    }
    total += burst + periodic;
  }
  return total;
}

}  // namespace

std::vector<std::size_t> fbb_order(const std::vector<FbbStrand>& strands) {
  std::vector<std::size_t> order(strands.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&strands](std::size_t a, std::size_t b) {
    const FbbStrand& x = strands[a];
    const FbbStrand& y = strands[b];
    if (x.window != y.window) return x.window < y.window;
    if (x.task != y.task) return x.task < y.task;
    return x.segment < y.segment;
  });
  return order;
}

std::vector<int> fbb_place(const std::vector<FbbStrand>& strands, int cores, FitKind fit) {
  std::vector<int> core_of(strands.size(), -1);
  std::vector<std::vector<std::size_t>> on(static_cast<std::size_t>(std::max(cores, 0)));
  for (const std::size_t k : fbb_order(strands)) {
    const FbbStrand& s = strands[k];
    int chosen = -1;
    __int128 chosen_load = 0;
    for (int q = 0; q < cores; ++q) {
      const auto& members = on[static_cast<std::size_t>(q)];
      const __int128 load =
          members.empty() ? 0 : rbf_star(strands, members, s, fit != FitKind::first_fit);
      if (static_cast<__int128>(s.window) - load < s.wcet) continue;  // load condition fails
      if (fit != FitKind::worst_fit) {
        chosen = q;
        break;
      }
      if (chosen < 0 || load < chosen_load) {
        chosen = q;
        chosen_load = load;
      }
    }
    core_of[k] = chosen;
    if (chosen >= 0) on[static_cast<std::size_t>(chosen)].push_back(k);
  }
  return core_of;
}

}  // namespace rtpar::analysis
