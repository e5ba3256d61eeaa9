// fbb_ffd.cpp — see fbb_ffd.hpp.
#include "analysis/bounds/fbb_ffd.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <span>
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

// LoadMemo is one core's last core_interference result, in its two parts (SplitLoad), with what
// each part was computed for. core_interference is a pure function of the core's members and of
// the strand's fields (task, segment, offset, window, period, WCET):
//   - the other-task part reads only the other tasks' entries, s's task and s's window: it stays
//     valid while no strand of another task joins the core, for strands of the same task and
//     window (the strands of one segment, and the next segments of the same task with the same
//     window, which fbb_order visits one after another: it sorts by window, then task);
//   - the own part reads s's task's entries, whether another task is present and all of s's
//     fields: it is computed again after any strand joins the core, or for other fields.
// A memo hit is the same value, so the same placements, with far fewer evaluations.
struct LoadMemo {
  bool others_valid = false;
  std::size_t others_task = 0;
  std::int64_t others_window = 0;
  __int128 others = 0;
  bool own_valid = false;
  FbbStrand own_key;
  __int128 own = 0;
};

// same_fields says whether two strands give core_interference the same inputs.
bool same_fields(const FbbStrand& a, const FbbStrand& b) {
  return a.task == b.task && a.segment == b.segment && a.offset == b.offset &&
         a.window == b.window && a.period == b.period && a.wcet == b.wcet;
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
                    const std::optional<PeriodicServer>& server) {
  FbbResult result;
  result.core.assign(strands.size(), -1);
  result.level_full.assign(strands.size(), false);
  const auto n = static_cast<std::size_t>(std::max(cores, 0));
  // Per core: one entry per (task, segment), kept ordered by (task, offset), so core_interference
  // reads each task's entries as one span, sorted for offset_burst.
  std::vector<std::vector<CoreSegment>> on(n);
  std::vector<LoadMemo> memo(n);  // per core: its last load (LoadMemo)
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
  for (const std::size_t k : fbb_order(strands)) {
    const FbbStrand& s = strands[k];
    if (last_failed.valid && same_fields(last_failed.key, s)) {
      result.level_full[k] = last_failed.blocked;  // result.core[k] stays −1
      continue;
    }
    last_failed.valid = false;
    // The server's execution in a window of the strand's length (fbb_ffd.hpp), 0 if not charged.
    const __int128 kernel = server ? server_interference(*server, s.window) : 0;
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
      const std::vector<CoreSegment>& members = on[q];
      LoadMemo& m = memo[q];
      const bool others_hit =
          m.others_valid && m.others_task == s.task && m.others_window == s.window;
      const bool own_hit = m.own_valid && same_fields(m.own_key, s);
      if (!others_hit || !own_hit) {
        const SplitLoad split = split_interference(members, s, fit, others_hit);
        if (!others_hit) {
          m.others = split.others;
          m.others_valid = true;
          m.others_task = s.task;
          m.others_window = s.window;
        }
        m.own = split.own;
        m.own_valid = true;
        m.own_key = s;
      }
      const __int128 load = m.own + m.others;
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
      last_failed = Failed{true, s, blocked_by_level};
      continue;
    }
    if (fit != FitKind::worst_fit) {
      resume = Resume{true, s, static_cast<std::size_t>(chosen), blocked_by_level};
    }
    std::vector<CoreSegment>& members = on[static_cast<std::size_t>(chosen)];
    // s's task gains a strand here: the own part changes; the other-task part does not for s's
    // task, and is dropped if it was kept for another task (for which s's task is "other").
    LoadMemo& changed = memo[static_cast<std::size_t>(chosen)];
    changed.own_valid = false;
    if (changed.others_task != s.task) changed.others_valid = false;
    auto it = std::find_if(members.begin(), members.end(), [&](const CoreSegment& c) {
      return c.task == s.task && c.segment == s.segment;
    });
    if (it == members.end()) {
      // After the task's entries with offsets ≤ s.offset: the list stays ordered by (task,
      // offset), which offset_burst's linear path needs (the values do not depend on the order).
      const auto at = std::upper_bound(
          members.begin(), members.end(), std::make_pair(s.task, s.offset),
          [](const std::pair<std::size_t, std::int64_t>& key, const CoreSegment& c) {
            return key.first != c.task ? key.first < c.task : key.second < c.offset;
          });
      it = members.insert(at, CoreSegment{s.task, s.segment, s.offset, s.window, s.period, 0});
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
