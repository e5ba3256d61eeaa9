// fbb_ffd.cpp — see fbb_ffd.hpp.
#include "analysis/bounds/fbb_ffd.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <utility>

namespace rtpar::analysis {

namespace {

// own_interference is the offset-aware term of s's own task i (fbb_ffd.hpp). With no other task
// on the core it is W_{i,k}: the task's earlier segments are complete by s's release. Otherwise
// it covers the two ways a level-s busy period [t0, ·) can contain s's release a (the argument is
// in docs/analysis/decomposition.md; d ≤ D_i ≤ T_i, so a window of length d holds at most one
// instance of each own segment):
//   (A) a < t0 + d: W_{i,k} + Σ_{p<k, r_k − r_p < d} W_{i,p} + Σ_{p : r_p > r_k + T_i − d} W_{i,p}
//       (this job's earlier segments and the previous job's tail released after a − d);
//   (B) a ≥ t0 + d: the window holds only earlier instances, at most offset_burst of all own
//       segments with segment k's full work W_{i,k} + e; as a load: that minus e.
// The larger of the two is returned, so d − others − own ≥ e implies both conditions.
__int128 own_interference(const std::vector<CoreSegment>& own, const FbbStrand& s,
                          bool others_present) {
  __int128 same = 0;
  for (const CoreSegment& p : own) {
    if (p.segment == s.segment) same += p.work;
  }
  if (!others_present) return same;
  const std::int64_t d = s.window;
  __int128 case_a = same;
  // r_k + T_i − d in 128 bits: with T_i near 2^63 ns the sum overflows int64 (offsets ≥ 0).
  const __int128 tail_start = static_cast<__int128>(s.offset) + s.period - d;
  for (const CoreSegment& p : own) {
    if (p.segment < s.segment && s.offset - p.offset < d) case_a += p.work;
    if (p.offset > tail_start) case_a += p.work;
  }
  std::vector<CoreSegment> all = own;
  const auto it = std::find_if(all.begin(), all.end(),
                               [&](const CoreSegment& c) { return c.segment == s.segment; });
  if (it == all.end()) {
    all.push_back(CoreSegment{s.task, s.segment, s.offset, s.window, s.period, s.wcet});
  } else {
    it->work += s.wcet;
  }
  const __int128 case_b = offset_burst(all, d) - s.wcet;
  return std::max(case_a, case_b);
}

}  // namespace

std::vector<std::size_t> fbb_order(const std::vector<FbbStrand>& strands) {
  std::vector<std::size_t> order(strands.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&strands](std::size_t a, std::size_t b) {
    const FbbStrand& x = strands[a];
    const FbbStrand& y = strands[b];
    if (x.window != y.window) return x.window < y.window;
    if (x.task != y.task) return x.task < y.task;
    return x.segment < y.segment;
  });
  return order;
}

__int128 core_interference(const std::vector<CoreSegment>& core, const FbbStrand& s, FitKind fit) {
  std::map<std::size_t, std::vector<CoreSegment>> by_task;
  for (const CoreSegment& c : core) by_task[c.task].push_back(c);
  const bool others_present = by_task.size() > (by_task.count(s.task) != 0 ? 1U : 0U);
  __int128 total = 0;
  for (const auto& [task, segs] : by_task) {
    if (fit == FitKind::first_fit) {
      __int128 work = 0;
      for (const CoreSegment& p : segs) work += p.work;
      total += rbf_fbb(work, segs.front().period, s.window);
    } else if (task == s.task) {
      total += own_interference(segs, s, others_present);
    } else {
      total += rbf_star(segs, s.window);
    }
  }
  return total;
}

FbbResult fbb_place(const std::vector<FbbStrand>& strands, int cores, FitKind fit, int levels,
                    const std::optional<PeriodicServer>& server) {
  FbbResult result;
  result.core.assign(strands.size(), -1);
  result.level_full.assign(strands.size(), false);
  const auto n = static_cast<std::size_t>(std::max(cores, 0));
  std::vector<std::vector<CoreSegment>> on(n);  // per core: one entry per (task, segment)
  for (const std::size_t k : fbb_order(strands)) {
    const FbbStrand& s = strands[k];
    // The server's execution in a window of the strand's length (fbb_ffd.hpp), 0 if not charged.
    const __int128 kernel = server ? server_interference(*server, s.window) : 0;
    int chosen = -1;
    __int128 chosen_load = 0;
    bool blocked_by_level = false;
    for (std::size_t q = 0; q < n; ++q) {
      const std::vector<CoreSegment>& members = on[q];
      const __int128 load = core_interference(members, s, fit);
      // Load condition d − Σ RBF ≥ e (rt-openmp.md §IV-A), minus the server's I(d) when charged.
      if (static_cast<__int128>(s.window) - load - kernel < s.wcet) continue;
      const bool has_segment = std::any_of(members.begin(), members.end(), [&](const auto& c) {
        return c.task == s.task && c.segment == s.segment;
      });
      if (!has_segment && members.size() >= static_cast<std::size_t>(levels)) {
        blocked_by_level = true;
        continue;
      }
      if (fit != FitKind::worst_fit) {
        chosen = static_cast<int>(q);
        break;
      }
      if (chosen < 0 || load < chosen_load) {
        chosen = static_cast<int>(q);
        chosen_load = load;
      }
    }
    result.core[k] = chosen;
    if (chosen < 0) {
      result.level_full[k] = blocked_by_level;
      continue;
    }
    std::vector<CoreSegment>& members = on[static_cast<std::size_t>(chosen)];
    auto it = std::find_if(members.begin(), members.end(), [&](const CoreSegment& c) {
      return c.task == s.task && c.segment == s.segment;
    });
    if (it == members.end()) {
      members.push_back(CoreSegment{s.task, s.segment, s.offset, s.window, s.period, 0});
      it = std::prev(members.end());
    }
    it->work += s.wcet;
  }
  return result;
}

std::vector<int> strand_priorities(const std::vector<FbbStrand>& strands,
                                   const std::vector<int>& core) {
  std::vector<int> priority(strands.size(), 0);
  std::map<int, std::map<std::pair<std::size_t, std::size_t>, int>> rank;  // core → segment → prio
  for (const std::size_t k : fbb_order(strands)) {
    if (core[k] < 0) continue;
    auto& segments = rank[core[k]];
    const auto key = std::make_pair(strands[k].task, strands[k].segment);
    auto it = segments.find(key);
    if (it == segments.end()) {
      // fbb_place admits at most kPriorityLevels segments per core, so this stays ≥ 1 for its
      // results; the clamp only guards hand-made placements.
      const int next = std::max(kBottomPriority, kTopPriority - static_cast<int>(segments.size()));
      it = segments.emplace(key, next).first;
    }
    priority[k] = it->second;
  }
  return priority;
}

}  // namespace rtpar::analysis
