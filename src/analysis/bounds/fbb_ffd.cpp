// fbb_ffd.cpp — see fbb_ffd.hpp.
#include "analysis/bounds/fbb_ffd.hpp"

#include <algorithm>
#include <span>
#include <utility>

#include "analysis/bounds/fbb_core.hpp"
#include "core/progress.hpp"

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
__int128 own_interference(std::span<const CoreSegment> own, const FbbStrand& s,
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
  // A scratch list reused across calls: no allocation per evaluation once it has grown.
  thread_local std::vector<CoreSegment> all;
  all.assign(own.begin(), own.end());
  const auto it = std::find_if(all.begin(), all.end(),
                               [&](const CoreSegment& c) { return c.segment == s.segment; });
  if (it == all.end()) {
    // In offset order, as the core keeps them (offset_burst's linear path needs sorted offsets).
    const auto at =
        std::upper_bound(all.begin(), all.end(), s.offset,
                         [](std::int64_t r, const CoreSegment& c) { return r < c.offset; });
    all.insert(at, CoreSegment{s.task, s.segment, s.offset, s.window, s.period, s.wcet});
  } else {
    it->work += s.wcet;
  }
  const __int128 case_b = offset_burst(all, d) - s.wcet;
  return std::max(case_a, case_b);
}

}  // namespace

std::vector<std::size_t> fbb_order(const std::vector<FbbStrand>& strands) {
  // The stable sort of the strands by (window, task, segment), done on runs of consecutive
  // strands with equal keys (the strands of one segment): a stable sort keeps equal keys in their
  // given order, which within a run is the run's and across runs the runs' order, so sorting the
  // runs stably and expanding them gives the same permutation with far fewer elements to sort.
  const auto key_less = [](const FbbStrand& x, const FbbStrand& y) {
    if (x.window != y.window) return x.window < y.window;
    if (x.task != y.task) return x.task < y.task;
    return x.segment < y.segment;
  };
  const auto same_key = [](const FbbStrand& x, const FbbStrand& y) {
    return x.window == y.window && x.task == y.task && x.segment == y.segment;
  };
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end)
  for (std::size_t k = 0; k < strands.size(); ++k) {
    if (k > 0 && same_key(strands[k - 1], strands[k])) {
      runs.back().second = k + 1;
    } else {
      runs.emplace_back(k, k + 1);
    }
  }
  std::stable_sort(runs.begin(), runs.end(), [&](const auto& a, const auto& b) {
    return key_less(strands[a.first], strands[b.first]);
  });
  std::vector<std::size_t> order;
  order.reserve(strands.size());
  for (const auto& [begin, end] : runs) {
    for (std::size_t k = begin; k < end; ++k) order.push_back(k);
  }
  return order;
}

namespace {

// by_task_less orders a core's members by task only (stable sorts keep each task's own order).
bool by_task_less(const CoreSegment& a, const CoreSegment& b) { return a.task < b.task; }

// SplitLoad is core_interference in two parts: the term of s's own task and the sum over the
// other tasks on the core (their total is core_interference).
struct SplitLoad {
  __int128 own = 0;
  __int128 others = 0;
};

// split_interference is core_interference on members grouped by task (each task's entries
// contiguous), in its two parts; `own_only` computes only the own part (others is then 0).
// Nothing is allocated.
SplitLoad split_interference(std::span<const CoreSegment> core, const FbbStrand& s, FitKind fit,
                             bool own_only = false) {
  const bool others_present = std::any_of(core.begin(), core.end(),
                                          [&s](const CoreSegment& c) { return c.task != s.task; });
  SplitLoad load;
  for (std::size_t begin = 0; begin < core.size();) {
    std::size_t end = begin + 1;
    while (end < core.size() && core[end].task == core[begin].task) ++end;
    const std::span<const CoreSegment> segs = core.subspan(begin, end - begin);
    begin = end;
    const bool own = segs.front().task == s.task;
    if (own_only && !own) continue;
    __int128& part = own ? load.own : load.others;
    if (fit == FitKind::first_fit) {
      __int128 work = 0;
      for (const CoreSegment& p : segs) work += p.work;
      part += rbf_fbb(work, segs.front().period, s.window);
    } else if (own) {
      part += own_interference(segs, s, others_present);
    } else {
      part += rbf_star(segs, s.window);
    }
  }
  return load;
}

// sorted_interference is core_interference on members grouped by task.
__int128 sorted_interference(std::span<const CoreSegment> core, const FbbStrand& s, FitKind fit) {
  const SplitLoad load = split_interference(core, s, fit);
  return load.own + load.others;
}

// forced_core is where fbb_place's `force` puts a strand no core admits, among the cores with a
// free level or one of s's segment: the first (fbb_ffd, first_fit) or the one with the least load
// (worst_fit; ties: lower index); −1 when there is none.
int forced_core(std::vector<FbbCore>& on, const FbbStrand& s, FitKind fit, int levels) {
  int chosen = -1;
  __int128 chosen_load = 0;
  for (std::size_t q = 0; q < on.size(); ++q) {
    FbbCore& core = on[q];
    if (!core.has_segment(s) && core.members().size() >= static_cast<std::size_t>(levels)) {
      continue;
    }
    if (fit != FitKind::worst_fit) return static_cast<int>(q);
    const __int128 load = core.load(s, fit);
    if (chosen < 0 || load < chosen_load) {
      chosen = static_cast<int>(q);
      chosen_load = load;
    }
  }
  return chosen;
}

}  // namespace

__int128 core_interference(const std::vector<CoreSegment>& core, const FbbStrand& s, FitKind fit) {
  // Grouped by task as a stable sort does it: each task's entries in their given order, which is
  // what the per-task terms see (their values do not depend on that order anyway).
  if (std::is_sorted(core.begin(), core.end(), by_task_less)) {
    return sorted_interference(core, s, fit);
  }
  std::vector<CoreSegment> grouped = core;
  std::stable_sort(grouped.begin(), grouped.end(), by_task_less);
  return sorted_interference(grouped, s, fit);
}

FbbResult fbb_place(const std::vector<FbbStrand>& strands, int cores, FitKind fit, int levels,
                    const std::optional<PeriodicServer>& server, bool force) {
  FbbResult result;
  result.core.assign(strands.size(), -1);
  result.level_full.assign(strands.size(), false);
  result.forced.assign(strands.size(), false);
  result.priority.assign(strands.size(), 0);
  result.order = fbb_order(strands);
  const auto n = static_cast<std::size_t>(std::max(cores, 0));
  // Per core: its entries and load memos (fbb_core.hpp); every load it gives is
  // core_interference's value.
  std::vector<FbbCore> on(n);
  // The refusals from lower bounds (FbbCore::lower_bound) need WCETs ≥ 0 and windows ≥ 0 (then
  // works only grow and every term is ≥ 0 and grows with d and work); decompose makes them so.
  // Other input gets the exact loads only.
  const bool shortcuts = std::all_of(strands.begin(), strands.end(), [](const FbbStrand& s) {
    return s.wcet >= 0 && s.window >= 0;
  });
  // The last strand that no core admitted: nothing changed since (a failure places nothing), so
  // a next strand with the same fields (same segment) fails the same way on every core.
  struct Failed {
    bool valid = false;
    FbbStrand key;
    bool blocked = false;
  } last_failed;
  // First-fit (fbb_ffd, first_fit): the last strand placed, the core it took and whether a core
  // before it was full of levels. Every core before that one refused it and has not changed
  // since, so a next strand with the same fields is refused there the same way: its scan resumes
  // at that core.
  struct Resume {
    bool valid = false;
    FbbStrand key;
    std::size_t core = 0;
    bool blocked = false;
  } resume;
  const auto total = static_cast<std::int64_t>(result.order.size());
  std::int64_t done = 0;
  for (const std::size_t k : result.order) {
    if (done++ % detail::kProgressEvery == 0) detail::progress("placing strands", done - 1, total);
    const FbbStrand& s = strands[k];
    if (last_failed.valid && same_fields(last_failed.key, s)) {
      result.level_full[k] = last_failed.blocked;  // result.core[k] stays −1
      continue;
    }
    last_failed.valid = false;
    // The server's execution in a window of the strand's length (fbb_ffd.hpp), 0 if not charged.
    const __int128 kernel = server ? server_interference(*server, s.window) : 0;
    // The load condition d − Σ RBF − I(d) ≥ e (RT-OpenMP §IV-A, fbb_ffd.hpp) as load ≤ room.
    const __int128 room = static_cast<__int128>(s.window) - kernel - s.wcet;
    int chosen = -1;
    __int128 chosen_load = 0;
    bool blocked_by_level = false;
    std::size_t first = 0;
    if (resume.valid && same_fields(resume.key, s)) {
      first = resume.core;
      blocked_by_level = resume.blocked;
    }
    resume.valid = false;
    for (std::size_t q = first; q < n; ++q) {
      FbbCore& core = on[q];
      // A lower bound above the room refuses as the exact load would (FbbCore::lower_bound);
      // only worth checking when the exact load needs a pass over the core.
      if (shortcuts && core.bounds_hold() && !core.others_cached(s) && core.exceeds(s, fit, room)) {
        continue;
      }
      // The own part is ≥ own_lower ≥ 0 (FbbCore::lower_bound), so other tasks' part above the
      // room refuses, and so does that plus own_lower.
      const __int128 others = core.others(s, fit);
      if (shortcuts && (others > room || others + core.own_lower(s, fit) > room)) continue;
      const __int128 load = others + core.own(s, fit);
      if (load > room) continue;
      if (!core.has_segment(s) && core.members().size() >= static_cast<std::size_t>(levels)) {
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
    if (chosen < 0 && force) {
      // Refused by every core: the heuristic's core without the load condition takes it anyway
      // (fbb_ffd.hpp). Nothing is remembered: the forced work changes that core's load.
      chosen = forced_core(on, s, fit, levels);
      if (chosen >= 0) {
        result.forced[k] = true;
        result.level_full[k] = blocked_by_level;
        result.core[k] = chosen;
        const int rank = on[static_cast<std::size_t>(chosen)].add(s);
        result.priority[k] = std::max(kBottomPriority, kTopPriority - rank);
        continue;
      }
    }
    result.core[k] = chosen;
    if (chosen < 0) {
      result.level_full[k] = blocked_by_level;
      last_failed = Failed{true, s, blocked_by_level};
      continue;
    }
    if (fit != FitKind::worst_fit) {
      resume = Resume{true, s, static_cast<std::size_t>(chosen), blocked_by_level};
    }
    // strand_priorities's rank: the core's segments in the order their first strand came, which
    // is fbb_order, the visit order (the clamp as there).
    const int rank = on[static_cast<std::size_t>(chosen)].add(s);
    result.priority[k] = std::max(kBottomPriority, kTopPriority - rank);
  }
  detail::progress("placing strands", total, total);
  return result;
}

std::vector<int> strand_priorities(const std::vector<FbbStrand>& strands,
                                   const std::vector<int>& core) {
  return strand_priorities(strands, core, fbb_order(strands));
}

std::vector<int> strand_priorities(const std::vector<FbbStrand>& strands,
                                   const std::vector<int>& core,
                                   const std::vector<std::size_t>& order) {
  std::vector<int> priority(strands.size(), 0);
  using Key = std::pair<std::size_t, std::size_t>;  // (task, segment)
  int cores = 0;
  for (const int c : core) cores = std::max(cores, c + 1);
  // Per core: the segments ranked so far, ordered by key (the rank of a segment is fixed when
  // its first strand is met, so the order of this list does not matter for the values).
  std::vector<std::vector<std::pair<Key, int>>> rank(static_cast<std::size_t>(cores));
  std::vector<std::size_t> last(static_cast<std::size_t>(cores), 0);  // index of the last hit
  for (const std::size_t k : order) {
    if (core[k] < 0) continue;
    auto& segments = rank[static_cast<std::size_t>(core[k])];
    std::size_t& hint = last[static_cast<std::size_t>(core[k])];
    const Key key{strands[k].task, strands[k].segment};
    if (hint < segments.size() && segments[hint].first == key) {
      priority[k] = segments[hint].second;  // the strand before on this core, same segment
      continue;
    }
    auto it = std::lower_bound(segments.begin(), segments.end(), key,
                               [](const auto& e, const Key& x) { return e.first < x; });
    if (it == segments.end() || it->first != key) {
      // fbb_place admits at most kPriorityLevels segments per core, so this stays ≥ 1 for its
      // results; the clamp only guards hand-made placements.
      const int next = std::max(kBottomPriority, kTopPriority - static_cast<int>(segments.size()));
      it = segments.insert(it, {key, next});
    }
    hint = static_cast<std::size_t>(it - segments.begin());
    priority[k] = it->second;
  }
  return priority;
}

}  // namespace rtpar::analysis
