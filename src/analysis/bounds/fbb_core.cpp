// fbb_core.cpp — see fbb_core.hpp.
#include "analysis/bounds/fbb_core.hpp"

#include <algorithm>

namespace rtpar::analysis {

std::pair<std::size_t, std::size_t> FbbCore::task_entries(std::size_t task) const {
  if (span_.valid && span_.task == task) return {span_.begin, span_.end};
  const auto lo = std::lower_bound(members_.begin(), members_.end(), task,
                                   [](const CoreSegment& c, std::size_t t) { return c.task < t; });
  auto hi = lo;
  while (hi != members_.end() && hi->task == task) ++hi;
  span_ = TaskSpan{true, task, static_cast<std::size_t>(lo - members_.begin()),
                   static_cast<std::size_t>(hi - members_.begin())};
  return {span_.begin, span_.end};
}

__int128 FbbCore::bound_of(std::size_t task) const {
  if (bound_hint_ < bounds_.size() && bounds_[bound_hint_].task == task) {
    return bounds_[bound_hint_].value;
  }
  const auto it = std::lower_bound(bounds_.begin(), bounds_.end(), task,
                                   [](const TaskBound& b, std::size_t t) { return b.task < t; });
  if (it == bounds_.end() || it->task != task) return 0;
  bound_hint_ = static_cast<std::size_t>(it - bounds_.begin());
  return it->value;
}

bool FbbCore::others_present(std::size_t task) const {
  return bounds_.size() > 1 || (bounds_.size() == 1 && bounds_.front().task != task);
}

__int128 FbbCore::own_bound(const FbbStrand& s, FitKind fit) const {
  if (fit == FitKind::first_fit) {
    return ff_own_.valid && same_fields(ff_own_.key, s) ? ff_own_.value : 0;
  }
  if (!own_.valid || !same_fields(own_.key, s)) return 0;
  return own_.bursts_ready ? own_value() : own_.a * own_.w + own_.ca;
}

__int128 FbbCore::lower_bound(const FbbStrand& s, FitKind fit) const {
  const __int128 others = others_cached(s) ? others_.value : bound_total_ - bound_of(s.task);
  return others + own_bound(s, fit);
}

__int128 FbbCore::refined_others(const FbbStrand& s, FitKind fit) const {
  __int128 others = 0;
  for (const TaskBound& b : bounds_) {
    if (b.task == s.task) continue;
    // ⌈d·W/T⌉ = rbf_fbb(W, T, d) − W exactly (rbf.hpp); for first_fit the term is rbf_fbb.
    const __int128 scaled = rbf_fbb(b.work, b.period, s.window) - b.work;
    others += (fit == FitKind::first_fit ? b.work : b.burst) + scaled;
  }
  return others;
}

__int128 FbbCore::refined_lower_bound(const FbbStrand& s, FitKind fit) const {
  return refined_others(s, fit) + own_bound(s, fit);
}

bool FbbCore::exceeds(const FbbStrand& s, FitKind fit, __int128 room) {
  const __int128 own = own_bound(s, fit);
  if (others_cached(s)) return others_.value + own > room;
  if (bound_total_ - bound_of(s.task) + own > room) return true;
  // own_lower ≥ own_bound: it may fill the own memo (a pass over s's task's entries only).
  return refined_others(s, fit) + own_lower(s, fit) > room;
}

__int128 FbbCore::others_load(const FbbStrand& s, FitKind fit) {
  // The other tasks' terms of core_interference (fbb_ffd.hpp): RBF*_q(τ_j, d) for fbb_ffd and
  // worst_fit, rbf_fbb(Σ_p W_{j,p}, T_j, d) for first_fit, from each task's TaskBound: W_j and
  // the first entry's T_j are kept current by add, and
  //   rbf_fbb(W, T, d) = W + ⌈d·W/T⌉,   RBF* = offset_burst + ⌈d·W/T⌉   (rbf.hpp),
  // so only the burst needs the entries, and not even that while the task's entries are as when
  // it was computed and d is within the range offset_burst_until gave for it.
  __int128 others = 0;
  for (TaskBound& tb : bounds_) {
    if (tb.task == s.task) continue;
    const __int128 fbb = rbf_fbb(tb.work, tb.period, s.window);
    __int128 term = fbb;
    if (fit != FitKind::first_fit) {
      if (!tb.burst_fresh || s.window < tb.burst_d || s.window > tb.burst_until) {
        const auto [b, e] = task_entries(tb.task);
        const std::span<const CoreSegment> segs(members_.data() + b, e - b);
        tb.burst = offset_burst_until(segs, s.window, tb.burst_until);
        tb.burst_d = s.window;
        tb.burst_fresh = true;
      }
      term = tb.burst + (fbb - tb.work);
    }
    others += term;
    // term ≥ the recorded value (lower_bound's monotonicity), so the total stays Σ bounds_.
    bound_total_ += term - tb.value;
    tb.value = term;
  }
  return others;
}

void FbbCore::fill_own(const FbbStrand& s) {
  // own_interference (fbb_ffd.cpp) with k = s's segment, d = s.window, e = s.wcet and the work of
  // k's entry left free as w:
  //   (A) same + Σ_{p<k, r_k − r_p < d} W_p + Σ_{p : r_p > r_k + T − d} W_p, where same = w and
  //       k's own entry counts in the second sum only when r_k > r_k + T − d (d > T); so
  //       (A) = a·w + ca with a = 1 + [r_k > r_k + T − d] and ca the other entries' share.
  //   (B) offset_burst(entries with W_k = w + e) − e. offset_burst is a maximum over windows l
  //       of the work released in window l, and whether an entry lies in window l depends only
  //       on offsets, periods and d, not on works; so as a function of x = W_k it is
  //       max(p + x, q) with p = max over windows holding k of the others' work, q = max over
  //       windows without k (for d > 0 window k holds k, so p ≥ 0 exists). With H = Σ others'
  //       work + 1 > q: offset_burst(x = H) = p + H, and offset_burst(x = 0) = max(p, q), so
  //       q = that when it exceeds p; otherwise q ≤ p and max(p + x, q) = p + x for x ≥ 0, the
  //       same as taking q = p. Hence (B) = max(p + w, q − e).
  //   Without another task on the core the term is w. For d ≤ 0 offset_burst is 0: (B) = −e.
  // Both evaluations call offset_burst itself, so the value is the one own_interference gets.
  own_ = OwnTerm{};
  own_.valid = true;
  own_.key = s;
  own_.others_present = others_present(s.task);
  const auto [b, e] = task_entries(s.task);
  const std::span<const CoreSegment> own(members_.data() + b, e - b);
  std::int64_t offset_k = s.offset;
  for (const CoreSegment& p : own) {
    if (p.segment == s.segment) {
      own_.present = true;
      own_.w = p.work;
      offset_k = p.offset;
    }
  }
  if (!own_.others_present) return;
  const std::int64_t d = s.window;
  // r_k + T_i − d in 128 bits: with T_i near 2^63 ns the sum overflows int64 (offsets ≥ 0).
  const __int128 tail_start = static_cast<__int128>(s.offset) + s.period - d;
  own_.a = offset_k > tail_start ? 2 : 1;
  __int128 others_work = 0;
  bool alone = true;  // the task has no entry but k's here
  for (const CoreSegment& p : own) {
    if (p.segment == s.segment) continue;
    alone = false;
    others_work += p.work;
    if (p.segment < s.segment && s.offset - p.offset < d) own_.ca += p.work;
    if (p.offset > tail_start) own_.ca += p.work;
  }
  if (d <= 0) {
    own_.window_positive = false;
    return;
  }
  // k's entry alone: every window holds it, offset_burst(x) = x, so p = q = 0 (as computed below).
  if (alone) return;
  own_.bursts_ready = false;  // p and q wait for fill_bursts (own_lower does not need them)
  own_.others_work = others_work;
}

void FbbCore::fill_bursts() {
  const FbbStrand& s = own_.key;
  const std::int64_t d = s.window;
  const auto [b, e] = task_entries(s.task);
  const std::span<const CoreSegment> own(members_.data() + b, e - b);
  // The entries as own_interference builds them: k's entry where the core has it, else s's
  // inserted after the entries with offsets ≤ s.offset (offset order, for the linear path).
  thread_local std::vector<CoreSegment> all;
  all.assign(own.begin(), own.end());
  auto it = std::find_if(all.begin(), all.end(),
                         [&](const CoreSegment& c) { return c.segment == s.segment; });
  if (it == all.end()) {
    const auto at =
        std::upper_bound(all.begin(), all.end(), s.offset,
                         [](std::int64_t r, const CoreSegment& c) { return r < c.offset; });
    it = all.insert(at, CoreSegment{s.task, s.segment, s.offset, s.window, s.period, 0});
  }
  const __int128 h = own_.others_work + 1;
  it->work = h;
  own_.p = offset_burst(all, d) - h;
  it->work = 0;
  const __int128 burst0 = offset_burst(all, d);
  own_.q = burst0 > own_.p ? burst0 : own_.p;
  own_.bursts_ready = true;
}

__int128 FbbCore::own_lower(const FbbStrand& s, FitKind fit) {
  if (fit == FitKind::first_fit) return own(s, fit);
  if (!own_.valid || !same_fields(own_.key, s)) fill_own(s);
  if (own_.bursts_ready) return own_value();
  return own_.a * own_.w + own_.ca;  // case (A) ≤ max(case (A), case (B))
}

__int128 FbbCore::own_value() const {
  if (!own_.others_present) return own_.w;
  const __int128 case_a = own_.a * own_.w + own_.ca;
  const __int128 e = own_.key.wcet;
  const __int128 case_b = own_.window_positive ? std::max(own_.p + own_.w, own_.q - e) : -e;
  return std::max(case_a, case_b);
}

__int128 FbbCore::own(const FbbStrand& s, FitKind fit) {
  if (fit != FitKind::first_fit) {
    if (!own_.valid || !same_fields(own_.key, s)) fill_own(s);
    if (!own_.bursts_ready) fill_bursts();
    return own_value();
  }
  // first_fit: FBB's RBF of the own task's total work (fbb_ffd.hpp), 0 without an entry.
  if (!ff_own_.valid || !same_fields(ff_own_.key, s)) {
    const auto [b, e] = task_entries(s.task);
    __int128 value = 0;
    if (b < e) {
      __int128 work = 0;
      for (std::size_t m = b; m < e; ++m) work += members_[m].work;
      value = rbf_fbb(work, members_[b].period, s.window);
    }
    ff_own_ = OwnMemo{true, s, value};
  }
  return ff_own_.value;
}

__int128 FbbCore::others(const FbbStrand& s, FitKind fit) {
  if (!others_cached(s)) {
    others_.value = others_load(s, fit);
    others_.valid = true;
    others_.task = s.task;
    others_.window = s.window;
  }
  return others_.value;
}

bool FbbCore::has_segment(const FbbStrand& s) const {
  if (own_.valid && same_fields(own_.key, s)) return own_.present;
  const auto [b, e] = task_entries(s.task);
  for (std::size_t m = b; m < e; ++m) {
    if (members_[m].segment == s.segment) return true;
  }
  return false;
}

int FbbCore::add(const FbbStrand& s) {
  const auto [b, e] = task_entries(s.task);
  std::size_t at = e;
  for (std::size_t m = b; m < e; ++m) {
    if (members_[m].segment == s.segment) at = m;
  }
  if (b < e && members_[b].period != s.period) mixed_periods_ = true;
  if (members_.empty()) {
    members_.reserve(32);  // a core of FJOS systems holds tens of segments
    ranks_.reserve(32);
    bounds_.reserve(16);
  }
  if (at == e) {
    if (b == e) {
      // A new task on the core: its bound starts at 0 (≤ any term, lower_bound).
      const auto pos =
          std::lower_bound(bounds_.begin(), bounds_.end(), s.task,
                           [](const TaskBound& tb, std::size_t t) { return tb.task < t; });
      bounds_.insert(pos, TaskBound{s.task, 0, 0, 0, s.period, false, 0, 0});
    }
    // After the task's entries with offsets ≤ s.offset: the list stays ordered by (task,
    // offset), which offset_burst's linear path needs (the values do not depend on the order).
    at = b;
    while (at < e && members_[at].offset <= s.offset) ++at;
    span_.valid = false;  // entries move
    ranks_.insert(ranks_.begin() + static_cast<std::ptrdiff_t>(at),
                  static_cast<int>(members_.size()));
    members_.insert(members_.begin() + static_cast<std::ptrdiff_t>(at),
                    CoreSegment{s.task, s.segment, s.offset, s.window, s.period, 0});
  }
  members_[at].work += s.wcet;
  // The task's bound: its work now, the period of its first entry (which may have changed).
  const auto tb = std::lower_bound(bounds_.begin(), bounds_.end(), s.task,
                                   [](const TaskBound& x, std::size_t t) { return x.task < t; });
  tb->work += s.wcet;
  tb->period = members_[b].period;
  tb->burst_fresh = false;  // its works changed (burst stays a lower bound: refined_others)
  // s's task gains work: the other-task part is kept only if it was for s's task (for another
  // task, s's task is "other"); the own term only if it was for s's fields (only w changed).
  if (others_.task != s.task) others_.valid = false;
  if (own_.valid && same_fields(own_.key, s)) {
    own_.present = true;
    own_.w += s.wcet;
  } else {
    own_.valid = false;
  }
  ff_own_.valid = false;
  return ranks_[at];
}

}  // namespace rtpar::analysis
